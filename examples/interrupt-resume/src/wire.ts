import type { ChatMessage, ChatRequest } from '@rxagent/core';

/** The text of a wire message's content (a string or text parts). */
export function wireText(message: ChatMessage): string {
  const { content } = message;
  if (typeof content === 'string') return content;
  return content.map((part) => ('text' in part ? part.text : '')).join('');
}

/** The tool results that answer the model's last turn, in call order. */
export function latestToolOutputs(request: ChatRequest): string[] {
  const outputs: string[] = [];
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const message = request.messages[i]!;
    if (message.role !== 'tool') break;
    outputs.unshift(wireText(message));
  }
  return outputs;
}

/** Every tool result of the request, oldest first. */
export function allToolOutputs(request: ChatRequest): string[] {
  return request.messages.filter((message) => message.role === 'tool').map(wireText);
}
