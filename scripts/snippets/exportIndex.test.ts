import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { addExports, exportedNames, type ImportSource } from './exportIndex.js';

describe('exportedNames', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rxagent-exports-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('lists re-exported and declared names, marking the type-only ones', () => {
    const file = join(dir, 'index.ts');
    writeFileSync(
      file,
      [
        "export { a, type B, c as d } from './x.js';",
        "export type { E } from './y.js';",
        'export const f = 1, g = 2;',
        'export function h(): void {}',
        'export class I {}',
        'export interface J {}',
        'export type K = string;',
        'const hidden = 3;',
      ].join('\n'),
    );
    expect(Object.fromEntries(exportedNames(file))).toEqual({
      a: false,
      B: true,
      d: false,
      E: true,
      f: false,
      g: false,
      h: false,
      I: false,
      J: true,
      K: true,
    });
  });
});

describe('addExports', () => {
  it('keeps the first module that exports a name', () => {
    const index = new Map<string, ImportSource>();
    addExports(index, '@rxagent/core', new Map([['Msg', true]]));
    addExports(index, 'other', ['Msg', 'of']);
    expect(index.get('Msg')).toEqual({ specifier: '@rxagent/core', typeOnly: true });
    expect(index.get('of')).toEqual({ specifier: 'other', typeOnly: false });
  });
});
