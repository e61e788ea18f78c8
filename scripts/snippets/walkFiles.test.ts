import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { walkFiles } from './walkFiles.js';

describe('walkFiles', () => {
  let root = '';
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const tree = (): string => {
    root = mkdtempSync(join(tmpdir(), 'rxagent-walk-'));
    for (const dir of ['docs/guide', 'docs/node_modules/pkg', 'docs/api', 'docs/.snippets'])
      mkdirSync(join(root, dir), { recursive: true });
    for (const file of [
      'docs/a.md',
      'docs/guide/b.md',
      'docs/guide/c.ts',
      'docs/node_modules/pkg/README.md',
      'docs/api/index.md',
      'docs/.snippets/x.md',
    ])
      writeFileSync(join(root, file), '');
    return root;
  };

  it('lists the kept files, sorted, without installs or generated directories', () => {
    expect(walkFiles(tree(), 'docs', (path) => path.endsWith('.md'))).toEqual([
      'docs/a.md',
      'docs/guide/b.md',
    ]);
  });

  it('never follows links to directories, so a link cycle (as pnpm workspaces make) costs nothing', () => {
    tree();
    // Node 24's recursive readdir follows such links: this pair makes ~250,000 paths there.
    symlinkSync('..', join(root, 'docs/guide/loop'));
    symlinkSync(join(root, 'docs'), join(root, 'docs/guide/again'));
    expect(walkFiles(root, 'docs', () => true)).toEqual([
      'docs/a.md',
      'docs/guide/b.md',
      'docs/guide/c.ts',
    ]);
  });

  it('returns nothing for a directory that does not exist', () => {
    expect(walkFiles(tree(), 'missing', () => true)).toEqual([]);
  });
});
