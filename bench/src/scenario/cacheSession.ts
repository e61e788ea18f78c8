import type * as core from '@rxagent/core';

// The system prompt and the tools are those of react-agent's prompt-cache tests: the session
// the bench measures is the one they check.
export {
  CODING_SYS_PROMPT as CACHE_SYS_PROMPT,
  codingToolkit as cacheToolkit,
} from '../../../packages/react-agent/test/cache/cacheSession.js';

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
