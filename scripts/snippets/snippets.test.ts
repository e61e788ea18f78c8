import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ProcessPool } from '../testing/processPool.js';
import { batchTimeLimit, scaled } from '../testing/timeLimits.js';
import {
  collectSnippets,
  fragmentImports,
  typeCheckSnippets,
  type WrittenSnippet,
  writeSnippets,
} from './checkSnippets.js';
import { runSnippet } from './runSnippet.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

describe('the code blocks of the docs, READMEs and TSDoc examples', () => {
  const snippets = collectSnippets(root);
  let written: WrittenSnippet[] = [];
  // The runnable blocks run a few at a time (one per core), each with a limit that starts
  // when it starts; the test's own limit covers every wave of them.
  const pool = new ProcessPool();
  const perBlockMs = scaled(30_000);
  const runnable = snippets.filter((s) => s.run).length;

  beforeAll(async () => {
    written = writeSnippets(root, snippets, await fragmentImports(root));
  }, scaled(30_000));

  it('are found (markdown and @example blocks, some of them runnable)', () => {
    expect(snippets.filter((s) => s.file.endsWith('.md')).length).toBeGreaterThanOrEqual(5);
    expect(snippets.filter((s) => s.file.endsWith('.ts')).length).toBeGreaterThanOrEqual(20);
    expect(snippets.filter((s) => s.run).length).toBeGreaterThanOrEqual(3);
  });

  it(
    'type-check (each error is reported at its file:line)',
    () => {
      expect(typeCheckSnippets(root, written)).toEqual([]);
    },
    scaled(120_000),
  );

  it(
    'marked `run` run offline to a clean exit',
    async () => {
      const runs = await pool.map(
        written.filter((w) => w.snippet.run),
        (w) => runSnippet(root, w, perBlockMs),
      );
      expect(runs.flatMap((run) => (run.ok ? [] : [run.failure]))).toEqual([]);
    },
    batchTimeLimit(runnable, pool.limit, perBlockMs),
  );
});
