import {
  isJsonObject,
  type JsonObject,
  type Msg,
  type ToolUseBlock,
  toolResults,
  toolUses,
} from '@rxagent/core';

/** Tool calls awaiting results, and the raw text of any whose arguments were not JSON. */
export interface PendingToolCalls {
  readonly calls: readonly ToolUseBlock[];
  readonly invalidArguments: JsonObject;
}

const NONE: PendingToolCalls = { calls: [], invalidArguments: {} };

/**
 * The tool calls of the last tool-calling assistant message that have no result yet: what a
 * human-in-the-loop stop (or a cut call) left open. Empty when every call has its result.
 */
export function pendingToolCalls(messages: readonly Msg[]): PendingToolCalls {
  const answered = new Set<string>();
  for (let index = messages.length - 1; index >= 0; index--) {
    const msg = messages[index]!;
    if (msg.role === 'tool') {
      for (const result of toolResults(msg)) answered.add(result.id);
      continue;
    }
    if (msg.role !== 'assistant') return NONE;
    const calls = toolUses(msg).filter((call) => !answered.has(call.id));
    if (calls.length === 0) return NONE;
    const invalid = msg.metadata['invalidToolArguments'];
    return { calls, invalidArguments: isJsonObject(invalid) ? invalid : {} };
  }
  return NONE;
}
