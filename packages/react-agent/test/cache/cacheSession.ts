import { Toolkit, tool } from '@rxagent/core';
import type { ScriptedReply, ScriptedToolCall } from '@rxagent/core/testing';
import { z } from 'zod';

/** A realistic system prompt of about 1,200 tokens: role, rules and conventions. */
export const CODING_SYS_PROMPT = [
  'You are a careful coding agent working in a TypeScript monorepo.',
  ...Array.from(
    { length: 40 },
    (_, i) =>
      `Rule ${i + 1}: read the relevant files before changing them, keep each change small, run the tests of what you touched, and explain in one sentence why the change is needed.`,
  ),
].join('\n');

/** Deterministic text of `lines` lines about `topic`. */
function lines(topic: string, count: number): string {
  return Array.from(
    { length: count },
    (_, i) =>
      `${topic}:${i + 1}: export function step${i}(input: number) { return input * ${i + 2}; }`,
  ).join('\n');
}

/** The tools of the session: read a file, search, run tests (deterministic outputs). */
export function codingToolkit(): Toolkit {
  return new Toolkit([
    tool({
      name: 'read_file',
      description: 'Reads a file of the repository and returns its text.',
      parameters: z.object({ path: z.string().describe('The path from the repository root.') }),
      execute: ({ path }) => lines(path, 12),
    }),
    tool({
      name: 'search',
      description: 'Searches the repository for a word and returns the matching lines.',
      parameters: z.object({ query: z.string().describe('The word to look for.') }),
      execute: ({ query }) => lines(`src/${query}.ts`, 6),
    }),
    tool({
      name: 'run_tests',
      description: 'Runs the tests whose name matches a filter and returns their report.',
      parameters: z.object({ filter: z.string().describe('A test name filter.') }),
      execute: ({ filter }) =>
        `${Array.from({ length: 8 }, (_, i) => `✓ ${filter} case ${i + 1} (${i + 3} ms)`).join('\n')}\nTests: 8 passed`,
    }),
  ]);
}

/** The tool call of turn `turn` (0-based) of the scripted session. */
export function sessionCall(turn: number): ScriptedToolCall {
  switch (turn % 3) {
    case 0:
      return { name: 'read_file', arguments: { path: `packages/core/src/file${turn}.ts` } };
    case 1:
      return { name: 'search', arguments: { query: `symbol${turn}` } };
    default:
      return { name: 'run_tests', arguments: { filter: `suite${turn}` } };
  }
}

/**
 * The scripted 30-turn tool session: 29 replies that each think aloud briefly and call one
 * tool, then a final answer; 30 model requests in one call (`maxIters: 30`).
 */
export function sessionScript(turns = 30): ScriptedReply[] {
  const script: ScriptedReply[] = [];
  for (let turn = 0; turn < turns - 1; turn++) {
    script.push({ text: `Step ${turn + 1}: checking.`, toolCalls: [sessionCall(turn)] });
  }
  script.push('All steps done: the change is in and its tests pass.');
  return script;
}
