import type { ChatMessage, ChatRequest } from '@rxagent/core';

/** One tool result as a model request carries it. */
export interface SeenToolOutput {
  readonly name: string;
  readonly callId: string;
  readonly content: string;
}

/**
 * The tool results in a model request, in order, each named after the tool that produced it.
 * Offline scripts read them to answer from the real tool output, so the offline run shows
 * real data flowing through the agent rather than canned numbers.
 */
export function toolOutputs(request: ChatRequest): SeenToolOutput[] {
  const names = new Map<string, string>();
  const outputs: SeenToolOutput[] = [];
  for (const message of request.messages) {
    if (message.role === 'assistant') {
      for (const call of message.tool_calls ?? []) names.set(call.id, call.function.name);
    } else if (message.role === 'tool') {
      const name = names.get(message.tool_call_id) ?? 'unknown';
      outputs.push({ name, callId: message.tool_call_id, content: message.content });
    }
  }
  return outputs;
}

/** The content of the latest result of tool `name` in the request, or `undefined`. */
export function lastToolOutput(request: ChatRequest, name: string): string | undefined {
  return toolOutputs(request)
    .filter((output) => output.name === name)
    .at(-1)?.content;
}

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
    outputs.unshift(message.content);
  }
  return outputs;
}
