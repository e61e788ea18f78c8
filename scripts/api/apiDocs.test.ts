import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { createApiProgram, packageEntries, workspacePackages } from './apiReport.js';
import { undocumentedExports } from './undocumentedExports.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

describe('undocumentedExports', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rxagent-docs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('names exports without a summary, also through a re-export, and accepts documented ones', () => {
    writeFileSync(
      join(dir, 'a.ts'),
      [
        '/** Documented. */',
        'export const documented = 1;',
        'export function bare(): void {}',
        '/** @deprecated only a tag, no summary */',
        'export type OnlyTags = string;',
        '/** A class. */',
        'export class Widget {}',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'index.ts'),
      "export { bare, documented, OnlyTags, Widget } from './a';\n",
    );
    const file = join(dir, 'index.ts');
    const program = ts.createProgram([file], { strict: true, noEmit: true });
    const missing = undocumentedExports(program, [{ specifier: 'pkg', file }], dir);
    expect(missing).toEqual([
      { specifier: 'pkg', name: 'bare', declaredAt: 'a.ts:3' },
      { specifier: 'pkg', name: 'OnlyTags', declaredAt: 'a.ts:5' },
    ]);
  });

  it('finds none in the packages: every export of every entry point has a TSDoc summary', () => {
    const entries = workspacePackages(root).flatMap((dir) => packageEntries(dir));
    expect(entries.length).toBeGreaterThanOrEqual(8);
    const program = createApiProgram(
      root,
      entries.map((entry) => entry.file),
    );
    const missing = undocumentedExports(program, entries, root).map(
      (e) => `${e.specifier} ${e.name} (${e.declaredAt}) has no TSDoc summary`,
    );
    expect(missing).toEqual([]);
  }, 60_000);
});
