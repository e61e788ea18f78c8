import * as core from '@rxagent/core';
import { z } from 'zod';

/** A system prompt of about 1,200 tokens: role, rules and conventions. */
export const CACHE_SYS_PROMPT = [
  'You are a careful coding agent working in a TypeScript monorepo.',
  ...Array.from(
    { length: 40 },
    (_, i) =>
      `Rule ${i + 1}: read the relevant files before changing them, keep each change small, run the tests of what you touched, and explain in one sentence why the change is needed.`,
  ),
].join('\n');

const lines = (topic: string, count: number): string =>
  Array.from(
    { length: count },
    (_, i) =>
      `${topic}:${i + 1}: export function step${i}(input: number) { return input * ${i + 2}; }`,
  ).join('\n');

/** The session's tools: read a file, search, run tests (deterministic outputs of 0.5–1 KB). */
export function cacheToolkit(): core.Toolkit {
  return new core.Toolkit([
    core.tool({
      name: 'read_file',
      description: 'Reads a file of the repository and returns its text.',
      parameters: z.object({ path: z.string().describe('The path from the repository root.') }),
      execute: ({ path }) => lines(path, 12),
    }),
    core.tool({
      name: 'search',
      description: 'Searches the repository for a word and returns the matching lines.',
      parameters: z.object({ query: z.string().describe('The word to look for.') }),
      execute: ({ query }) => lines(`src/${query}.ts`, 6),
    }),
    core.tool({
      name: 'run_tests',
      description: 'Runs the tests whose name matches a filter and returns their report.',
      parameters: z.object({ filter: z.string().describe('A test name filter.') }),
      execute: ({ filter }) =>
        `${Array.from({ length: 8 }, (_, i) => `✓ ${filter} case ${i + 1} (${i + 3} ms)`).join('\n')}\nTests: 8 passed`,
    }),
  ]);
}

/** One tool call of turn `turn`: read, search and test in turn; every fifth turn calls two tools. */
function calls(turn: number): { name: string; arguments: core.JsonObject }[] {
  const pick = (n: number) =>
    n % 3 === 0
      ? { name: 'read_file', arguments: { path: `packages/core/src/file${n}.ts` } }
      : n % 3 === 1
        ? { name: 'search', arguments: { query: `symbol${n}` } }
        : { name: 'run_tests', arguments: { filter: `suite${n}` } };
  return turn % 5 === 4 ? [pick(turn), pick(turn + 1)] : [pick(turn)];
}

/**
 * The scripted session: `turns - 1` replies that each say a few words and call tools, then
 * the answer — `turns` model requests in one call. Plain turns, usable by both strict
 * servers' scripts.
 */
export function cacheSessionTurns(
  turns = 30,
): Array<{ text: string; toolCalls?: ReturnType<typeof calls> }> {
  const out: Array<{ text: string; toolCalls?: ReturnType<typeof calls> }> = [];
  for (let turn = 0; turn < turns - 1; turn++)
    out.push({ text: `Step ${turn + 1}: checking.`, toolCalls: calls(turn) });
  out.push({ text: 'All steps done: the change is in and its tests pass.' });
  return out;
}
