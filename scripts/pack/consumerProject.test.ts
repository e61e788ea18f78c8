import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { guideTsconfig, writeConsumerProject } from './consumerProject.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

describe("the getting-started guide's tsconfig.json", () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('sets rootDir to the directory it includes, as TypeScript 6 and 7 require with outDir', () => {
    const { compilerOptions, include } = guideTsconfig(root);
    expect(include).toEqual(['src']);
    expect(compilerOptions).toMatchObject({
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      types: ['node'],
      rootDir: 'src',
      outDir: 'dist',
    });
  });

  it('is the consumer project of the tarball install test, its main.ts under the included directory', () => {
    dir = mkdtempSync(join(tmpdir(), 'rxagent-consumer-'));
    writeConsumerProject(dir, 'export {};\n', guideTsconfig(root));
    const written = JSON.parse(readFileSync(join(dir, 'tsconfig.json'), 'utf8')) as {
      compilerOptions: Record<string, unknown>;
      include: string[];
    };
    expect(written.compilerOptions).toMatchObject(guideTsconfig(root).compilerOptions);
    expect(written.include).toEqual(['src']);
    expect(readFileSync(join(dir, 'src', 'main.ts'), 'utf8')).toBe('export {};\n');
  });
});
