import {
  type ChatResponse,
  type ContentBlock,
  createMsg,
  isJsonObject,
  type JsonObject,
  type Msg,
} from '@rxagent/core';

/**
 * Turns a model response into the assistant Msg stored in memory. Tool-call arguments that
 * are not a JSON object become `{}` in the `tool_use` block (so the history replays as
 * valid JSON) and the raw text is kept in `metadata.invalidToolArguments[id]`. A finish
 * reason other than `stop` or `tool_calls` (`length`, `content_filter`) is kept in
 * `metadata.finishReason`, so a caller can tell a filtered or cut answer from a whole one.
 */
export function responseToMsg(response: ChatResponse, name: string, id?: string): Msg {
  const content: ContentBlock[] = [];
  if (response.thinking) content.push({ type: 'thinking', thinking: response.thinking });
  if (response.text || response.toolCalls.length === 0)
    content.push({ type: 'text', text: response.text });
  const invalid: JsonObject = {};
  for (const call of response.toolCalls) {
    const input = parseArguments(call.arguments);
    if (input === undefined) invalid[call.id] = call.arguments;
    content.push({ type: 'tool_use', id: call.id, name: call.name, input: input ?? {} });
  }
  const metadata: JsonObject =
    Object.keys(invalid).length > 0 ? { invalidToolArguments: invalid } : {};
  const reason = response.finishReason;
  if (reason !== undefined && reason !== 'stop' && reason !== 'tool_calls') {
    metadata['finishReason'] = reason;
  }
  return createMsg({ name, role: 'assistant', content, metadata, ...(id !== undefined && { id }) });
}

function parseArguments(raw: string): JsonObject | undefined {
  if (raw.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(raw);
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
