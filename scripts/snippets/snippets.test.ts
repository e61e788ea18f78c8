import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  collectSnippets,
  fragmentImports,
  typeCheckSnippets,
  writeSnippets,
} from './checkSnippets.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

describe('the code blocks of the docs, READMEs and TSDoc examples', () => {
  const snippets = collectSnippets(root);

  it('are found (markdown and @example blocks)', () => {
    expect(snippets.filter((s) => s.file.endsWith('.md')).length).toBeGreaterThanOrEqual(5);
    expect(snippets.filter((s) => s.file.endsWith('.ts')).length).toBeGreaterThanOrEqual(20);
  });

  it('type-check (each error is reported at its file:line)', async () => {
    const written = writeSnippets(root, snippets, await fragmentImports(root));
    expect(typeCheckSnippets(root, written)).toEqual([]);
  }, 120_000);
});
