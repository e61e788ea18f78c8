import type { Msg } from '@rxagent/core';

type Part =
  | { type: 'text'; content: string }
  | { type: 'reasoning'; content: string }
  | { type: 'tool_call'; id: string; name: string; arguments: unknown }
  | { type: 'tool_call_response'; id: string; response: unknown }
  | { type: 'uri'; modality: 'image'; uri: string };

/**
 * Serialises messages in the GenAI conventions' message shape (`[{ role, parts: [...] }]`,
 * parts `text`, `reasoning`, `tool_call`, `tool_call_response`, `uri`), as the JSON text of
 * `gen_ai.input.messages` / `gen_ai.output.messages`. Only called when content capture is on.
 */
export function genAiMessages(msgs: readonly Msg[]): string {
  return JSON.stringify(msgs.map(genAiMessage));
}

function genAiMessage(msg: Msg): { role: string; name?: string; parts: Part[] } {
  const parts: Part[] = [];
  for (const block of msg.content) {
    switch (block.type) {
      case 'text':
        parts.push({ type: 'text', content: block.text });
        break;
      case 'thinking':
        parts.push({ type: 'reasoning', content: block.thinking });
        break;
      case 'tool_use':
        parts.push({ type: 'tool_call', id: block.id, name: block.name, arguments: block.input });
        break;
      case 'tool_result':
        parts.push({ type: 'tool_call_response', id: block.id, response: block.output });
        break;
      case 'image':
        parts.push({ type: 'uri', modality: 'image', uri: block.url });
        break;
    }
  }
  return { role: msg.role, ...(msg.name !== msg.role && { name: msg.name }), parts };
}
