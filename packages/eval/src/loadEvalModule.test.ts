import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEvalModule } from './loadEvalModule.js';
import { UsageError } from './usageError.js';

describe('loadEvalModule', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rxagent-eval-module-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  /** How Node 20 fails to import a .ts file when no loader handles TypeScript. */
  const noTypeScript = (url: string) =>
    Promise.reject(
      Object.assign(new TypeError(`Unknown file extension ".ts" for ${url}`), {
        code: 'ERR_UNKNOWN_FILE_EXTENSION',
      }),
    );

  it('is a UsageError naming the path when no file is there, or a directory is', async () => {
    const missing = join(dir, 'missing.eval.js');
    await expect(loadEvalModule(missing)).rejects.toThrow(
      new UsageError(`rxagent-eval: no eval module at ${missing}.`),
    );
    await expect(loadEvalModule(dir)).rejects.toBeInstanceOf(UsageError);
  });

  it('is a UsageError saying to install tsx when Node cannot load a TypeScript module', async () => {
    const path = join(dir, 'suite.eval.ts');
    await writeFile(path, 'export default {};\n');
    const error = await loadEvalModule(path, noTypeScript).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(
      `rxagent-eval: ${path} is TypeScript, which this Node cannot load by itself: install tsx (npm install -D tsx) or give a JavaScript module.`,
    );
  });

  it('passes on an error the module throws while loading, and reads default, config or a function', async () => {
    const path = join(dir, 'x.eval.js');
    await writeFile(path, 'export default {};\n');
    const thrown = new Error('the module broke');
    await expect(loadEvalModule(path, () => Promise.reject(thrown))).rejects.toBe(thrown);
    const config = { dataset: [] };
    expect(await loadEvalModule(path, async () => ({ default: config }))).toBe(config);
    expect(await loadEvalModule(path, async () => ({ config }))).toBe(config);
    expect(await loadEvalModule(path, async () => ({ default: () => config }))).toBe(config);
    await expect(loadEvalModule(path, async () => ({ other: 1 }))).rejects.toThrow(
      /exports no eval config/,
    );
  });
});
