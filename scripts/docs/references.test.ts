import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { barePnpmCommands } from './barePnpmCommands.js';
import { danglingReferences } from './danglingReferences.js';
import { trackedFiles } from './trackedFiles.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

describe('danglingReferences', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rxagent-refs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function scan(files: Record<string, string>): string[] {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return danglingReferences(dir, Object.keys(files)).map(
      (r) => `${r.file}:${r.line} ${r.target}`,
    );
  }

  it('reports a document that the repository does not contain, with file and line', () => {
    expect(scan({ 'a/README.md': '# A\nSee [the guide](guide.md) and NOTES.md.\n' })).toEqual([
      'a/README.md:2 guide.md',
      'a/README.md:2 NOTES.md',
    ]);
  });

  it('reports a relative path, in a comment of code, that leaves the repository', () => {
    expect(scan({ 'src/x.ts': 'const x = 1; // the contract: ../../outside/notes.txt\n' })).toEqual(
      ['src/x.ts:1 ../../outside/notes.txt'],
    );
  });

  it('reports a document cited by an absolute path outside the repository', () => {
    expect(scan({ 'src/z.ts': '/** Follows the plan in /opt/notes/PLAN.md. */\n' })).toEqual([
      'src/z.ts:1 /opt/notes/PLAN.md',
    ]);
  });

  it('reads code only in its comments: string literals are data', () => {
    expect(
      scan({ 'src/y.ts': "const key = '../../etc/passwd';\nconst file = 'ops.md';\n" }),
    ).toEqual([]);
  });

  it('accepts links and names of tracked files, .js imports of .ts sources and URLs', () => {
    expect(
      scan({
        'README.md': '[b](b/B.md), [c](b/c.ts#L3), see B.md, https://example.com/NOPE.md\n',
        'b/B.md': 'back to [the readme](../README.md)\n',
        'b/c.ts': "import { d } from '../d/d.js';\n",
        'd/d.ts': 'export const d = 1;\n',
      }),
    ).toEqual([]);
  });
});

describe('barePnpmCommands', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rxagent-pnpm-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reports shell lines that call pnpm without npx, and nothing outside shell blocks', () => {
    writeFileSync(
      join(dir, 'README.md'),
      [
        'Run `pnpm test` (prose is not checked).',
        '```sh',
        'npx -y pnpm@10.34.9 install && npx -y pnpm@10.34.9 test',
        'OPENAI_API_KEY=sk-1 pnpm --filter x start   # live',
        'cd a && pnpm test',
        '```',
        '```ts',
        "const pnpm = 'pnpm test';",
        '```',
      ].join('\n'),
    );
    expect(barePnpmCommands(dir, ['README.md']).map((c) => c.line)).toEqual([4, 5]);
  });
});

describe('the repository', () => {
  it('cites no document or path that it does not contain', () => {
    const dangling = danglingReferences(root, trackedFiles(root)).map(
      (r) => `${r.file}:${r.line} cites ${r.target}`,
    );
    expect(dangling).toEqual([]);
  });

  it('runs pnpm through npx in every shell block of its markdown (pnpm is not on an npm-only machine)', () => {
    const bare = barePnpmCommands(root, trackedFiles(root)).map(
      (c) => `${c.file}:${c.line} ${c.text}`,
    );
    expect(bare).toEqual([]);
  });
});
