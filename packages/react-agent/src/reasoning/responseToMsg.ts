import {
  type ChatResponse,
  type ContentBlock,
  createMsg,
  isJsonObject,
  type JsonObject,
  type Msg,
  parseToolArguments,
} from '@rxagent/core';

/**
 * Turns a model response into the assistant Msg stored in memory, so that the next request
 * can always be sent whatever the server returned:
 * - tool-call arguments that are not a JSON object, or that exceed the documented bounds
 *   (`MAX_TOOL_ARGUMENT_CHARS`, `MAX_TOOL_ARGUMENT_DEPTH`), become `{}` in the `tool_use`
 *   block and the raw text is kept in `metadata.invalidToolArguments[id]` (the toolkit then
 *   answers the call with an error result saying what was wrong);
 * - a tool-call id already used earlier in the reply, or by a tool call of the conversation
 *   (`inUse`: a server that numbers its calls `call_0`, `call_1`, … again each turn, or a
 *   conversation restored from a session), is renamed `<id>_2`, `<id>_3`, … (the first free
 *   suffix), so each call keeps its own result and the next request stays valid;
 *   `metadata.renamedToolCallIds` maps each new id to the server's.
 * - a finish reason other than `stop` or `tool_calls` (`length`, `content_filter`) is kept in
 *   `metadata.finishReason`, so a caller can tell a filtered or cut answer from a whole one.
 */
export function responseToMsg(
  response: ChatResponse,
  name: string,
  id?: string,
  inUse?: ReadonlySet<string>,
): Msg {
  const content: ContentBlock[] = [];
  if (response.thinking) content.push({ type: 'thinking', thinking: response.thinking });
  if (response.text || response.toolCalls.length === 0)
    content.push({ type: 'text', text: response.text });
  // Made only when needed: most replies have valid arguments and distinct ids.
  let invalid: JsonObject | undefined;
  let renamed: JsonObject | undefined;
  const calls = response.toolCalls;
  const clash = inUse !== undefined && inUse.size > 0 && calls.some((call) => inUse.has(call.id));
  const used = calls.length > 1 || clash ? new Set<string>() : undefined;
  for (const call of calls) {
    const callId = used === undefined ? call.id : uniqueId(call.id, used, inUse);
    if (callId !== call.id) {
      renamed ??= {};
      renamed[callId] = call.id;
    }
    const input = parseArguments(call.name, call.arguments);
    if (input === undefined) {
      invalid ??= {};
      invalid[callId] = call.arguments;
    }
    content.push({ type: 'tool_use', id: callId, name: call.name, input: input ?? {} });
  }
  const metadata: JsonObject = {};
  if (invalid !== undefined) metadata['invalidToolArguments'] = invalid;
  if (renamed !== undefined) metadata['renamedToolCallIds'] = renamed;
  const reason = response.finishReason;
  if (reason !== undefined && reason !== 'stop' && reason !== 'tool_calls') {
    metadata['finishReason'] = reason;
  }
  return createMsg({ name, role: 'assistant', content, metadata, ...(id !== undefined && { id }) });
}

function uniqueId(id: string, used: Set<string>, inUse: ReadonlySet<string> | undefined): string {
  let unique = id;
  for (let n = 2; used.has(unique) || inUse?.has(unique); n++) unique = `${id}_${n}`;
  used.add(unique);
  return unique;
}

function parseArguments(toolName: string, raw: string): JsonObject | undefined {
  const parsed = parseToolArguments(toolName, raw);
  return parsed.ok && isJsonObject(parsed.value) ? parsed.value : undefined;
}
