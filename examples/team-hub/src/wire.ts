import type { ChatRequest } from '@rxagent/core';
import { wireText } from '@rxagent/example-kit';

/** The last thing `name` said in the request (another agent's words arrive as named user messages). */
export function heardFrom(request: ChatRequest, name: string): string {
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const message = request.messages[i]!;
    if (message.role === 'user' && message.name === name) return wireText(message);
  }
  return '';
}
