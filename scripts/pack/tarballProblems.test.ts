import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCommand } from './runCommand.js';
import { tarballProblems } from './tarballProblems.js';

const dir = mkdtempSync(join(tmpdir(), 'rxagent-tarball-'));

async function tarball(name: string, files: Record<string, string>): Promise<string> {
  const base = join(dir, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(base, 'package', path)), { recursive: true });
    writeFileSync(join(base, 'package', path), text);
  }
  const file = join(dir, `${name}.tgz`);
  const tar = await runCommand('tar', ['-czf', file, '-C', base, 'package'], { cwd: dir });
  expect(tar.code).toBe(0);
  return file;
}

const manifest = (extra: object): string =>
  JSON.stringify({
    name: '@x/pkg',
    version: '1.0.0',
    engines: { node: '>=20.19' },
    license: 'MIT',
    exports: {
      '.': { types: './dist/index.d.ts', default: './dist/index.js' },
      './testing': { types: './dist/testing/index.d.ts', default: './dist/testing/index.js' },
    },
    ...extra,
  });

describe('tarballProblems', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds nothing wrong with a complete tarball', async () => {
    const file = await tarball('good', {
      'package.json': manifest({ dependencies: { '@x/core': '1.0.0' } }),
      LICENSE: 'MIT License',
      'README.md': '# @x/pkg',
      'dist/index.js': '',
      'dist/index.d.ts': '',
      'dist/testing/index.js': '',
      'dist/testing/index.d.ts': '',
    });
    expect(await tarballProblems(file)).toEqual([]);
  });

  it('names a missing .d.ts or .js, a workspace: range, a shipped test, a missing engines.node, license, LICENSE and README', async () => {
    const file = await tarball('bad', {
      'package.json': manifest({
        engines: undefined,
        license: undefined,
        dependencies: { '@x/core': 'workspace:*' },
      }),
      'dist/index.js': '',
      'dist/testing/index.d.ts': '',
      'src/a.test.ts': '',
    });
    expect(await tarballProblems(file)).toEqual([
      '@x/pkg: dependencies.@x/core is still workspace:*',
      '@x/pkg: no engines.node',
      '@x/pkg: no license field',
      '@x/pkg: LICENSE is not in the tarball',
      '@x/pkg: README.md is not in the tarball',
      '@x/pkg: exports["."].types ./dist/index.d.ts is not in the tarball',
      '@x/pkg: exports["./testing"].default ./dist/testing/index.js is not in the tarball',
      '@x/pkg: ships the test file src/a.test.ts',
    ]);
  });
});
