import type { ChatMessage, ChatRequest, JsonObject, ToolSchema } from '@rxagent/core';

type Json = Record<string, unknown>;

/**
 * A Messages API request body read back into a `ChatRequest` (OpenAI-style messages), for
 * script functions: `system` becomes a system message, `tool_result` blocks tool messages,
 * `tool_use` blocks an assistant message's `tool_calls`, and text blocks are joined. The
 * body has passed validation, so its shape is known.
 */
export function fromMessagesBody(body: JsonObject): ChatRequest {
  const messages: ChatMessage[] = [];
  const system = body['system'];
  if (typeof system === 'string') messages.push({ role: 'system', content: system });
  else if (Array.isArray(system)) {
    messages.push({
      role: 'system',
      content: system.map((block) => (block as Json)['text']).join('\n'),
    });
  }
  for (const message of body['messages'] as Json[]) {
    const blocks: Json[] =
      typeof message['content'] === 'string'
        ? [{ type: 'text', text: message['content'] }]
        : (message['content'] as Json[]);
    const text = blocks
      .filter((block) => block['type'] === 'text')
      .map((block) => block['text'] as string)
      .join('\n');
    if (message['role'] === 'assistant') {
      const calls = blocks.filter((block) => block['type'] === 'tool_use');
      messages.push({
        role: 'assistant',
        content: text,
        ...(calls.length > 0 && {
          tool_calls: calls.map((call) => ({
            id: call['id'] as string,
            type: 'function' as const,
            function: { name: call['name'] as string, arguments: JSON.stringify(call['input']) },
          })),
        }),
      });
      continue;
    }
    for (const block of blocks) {
      if (block['type'] !== 'tool_result') continue;
      const content = block['content'];
      messages.push({
        role: 'tool',
        tool_call_id: block['tool_use_id'] as string,
        content:
          typeof content === 'string'
            ? content
            : Array.isArray(content)
              ? content.map((part) => (part as Json)['text'] ?? '').join('')
              : '',
      });
    }
    if (text !== '') messages.push({ role: 'user', content: text });
  }
  const tools = Array.isArray(body['tools'])
    ? (body['tools'] as Json[]).map(
        (tool): ToolSchema => ({
          type: 'function',
          function: {
            name: tool['name'] as string,
            description: (tool['description'] as string | undefined) ?? '',
            parameters: tool['input_schema'] as JsonObject,
          },
        }),
      )
    : undefined;
  return { messages, ...(tools && { tools }) };
}
