import {
  type ChatResponse,
  type ContentBlock,
  createMsg,
  isJsonObject,
  type JsonObject,
  type Msg,
  parseToolArguments,
  type ThinkingBlock,
  type ToolUseBlock,
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
 * - what the server sent to be sent back (reasoning's field and `reasoning_details`, each
 *   call's `extraContent`) stays on the thinking and tool_use blocks, and thinking a provider
 *   signed or redacted keeps its blocks (`signature`, `provider`);
 * - `metadata.model` names the model that produced the reply (reasoning goes back only to
 *   it): the one a chunk named (a fallback chain's answering model, with what it skipped in
 *   `metadata.fallback`), else `model`;
 * - a finish reason other than `stop` or `tool_calls` (`length`, `content_filter`) is kept in
 *   `metadata.finishReason`, so a caller can tell a filtered or cut answer from a whole one.
 */
export function responseToMsg(
  response: ChatResponse,
  name: string,
  id?: string,
  model?: string,
  inUse?: ReadonlySet<string>,
): Msg {
  const content: ContentBlock[] = [];
  if (response.thinkingBlocks) content.push(...response.thinkingBlocks);
  else {
    const thinking = thinkingBlock(response);
    if (thinking) content.push(thinking);
  }
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
    const block: ToolUseBlock = {
      type: 'tool_use',
      id: callId,
      name: call.name,
      input: input ?? {},
    };
    content.push(
      call.extraContent ? { ...block, provider: { extraContent: call.extraContent } } : block,
    );
  }
  const metadata: JsonObject = response.metadata ? { ...response.metadata } : {};
  const answered = response.model ?? model;
  if (answered !== undefined) metadata['model'] = answered;
  if (invalid !== undefined) metadata['invalidToolArguments'] = invalid;
  if (renamed !== undefined) metadata['renamedToolCallIds'] = renamed;
  const reason = response.finishReason;
  if (reason !== undefined && reason !== 'stop' && reason !== 'tool_calls') {
    metadata['finishReason'] = reason;
  }
  return createMsg({ name, role: 'assistant', content, metadata, ...(id !== undefined && { id }) });
}

/**
 * The thinking block of a response, with what the server sent beside the text (the field
 * that carried it, OpenRouter's `reasoning_details`) so it can go back; a reply whose
 * reasoning is only details (encrypted) still gets one, with empty text.
 */
function thinkingBlock(response: ChatResponse): ThinkingBlock | undefined {
  const { thinking, reasoningField, reasoningDetails } = response;
  if (!thinking && !reasoningDetails) return undefined;
  const provider: JsonObject = {};
  if (reasoningField && thinking) provider['reasoningField'] = reasoningField;
  if (reasoningDetails) provider['reasoningDetails'] = [...reasoningDetails];
  const hasProvider = provider['reasoningField'] !== undefined || reasoningDetails !== undefined;
  return { type: 'thinking', thinking, ...(hasProvider && { provider }) };
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
