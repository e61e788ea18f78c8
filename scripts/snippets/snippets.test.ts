import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  collectSnippets,
  fragmentImports,
  typeCheckSnippets,
  type WrittenSnippet,
  writeSnippets,
} from './checkSnippets.js';
import { runSnippet, type SnippetRun } from './runSnippet.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

describe('the code blocks of the docs, READMEs and TSDoc examples', () => {
  const snippets = collectSnippets(root);
  let written: WrittenSnippet[] = [];

  beforeAll(async () => {
    written = writeSnippets(root, snippets, await fragmentImports(root));
  });

  it('are found (markdown and @example blocks, some of them runnable)', () => {
    expect(snippets.filter((s) => s.file.endsWith('.md')).length).toBeGreaterThanOrEqual(5);
    expect(snippets.filter((s) => s.file.endsWith('.ts')).length).toBeGreaterThanOrEqual(20);
    expect(snippets.filter((s) => s.run).length).toBeGreaterThanOrEqual(3);
  });

  it('type-check (each error is reported at its file:line)', () => {
    expect(typeCheckSnippets(root, written)).toEqual([]);
  }, 120_000);

  it('marked `run` run offline to a clean exit', async () => {
    // A few children at a time: 27 Node processes started at once on a busy 2-core machine
    // each outlive their 20 s limit.
    const queue = written.filter((w) => w.snippet.run);
    const runs: SnippetRun[] = [];
    const worker = async (): Promise<void> => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
        runs.push(await runSnippet(root, next));
      }
    };
    await Promise.all(Array.from({ length: 3 }, worker));
    expect(runs.flatMap((run) => (run.ok ? [] : [run.failure]))).toEqual([]);
  }, 600_000);
});
