/** A tool call as a hand-written loop assembles it from OpenAI stream deltas. */
export interface WireToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/** The fields of an OpenAI `chat.completion.chunk` delta the hand-written loops read. */
export interface WireDelta {
  content?: string | null;
  tool_calls?: ReadonlyArray<{
    index: number;
    id?: string;
    function?: { name?: string; arguments?: string };
  }>;
}

/**
 * What a careful hand-written loop does with a stream: append text and argument deltas to
 * arrays (linear in the reply), joined once at the end.
 */
export class WireAccumulator {
  readonly #text: string[] = [];
  readonly #calls: { id: string; name: string; args: string[] }[] = [];

  add(delta: WireDelta | undefined): void {
    if (!delta) return;
    if (delta.content) this.#text.push(delta.content);
    for (const part of delta.tool_calls ?? []) {
      let call = this.#calls[part.index];
      if (!call) {
        call = { id: '', name: '', args: [] };
        this.#calls[part.index] = call;
      }
      if (part.id) call.id = part.id;
      if (part.function?.name) call.name += part.function.name;
      if (part.function?.arguments) call.args.push(part.function.arguments);
    }
  }

  text(): string {
    return this.#text.join('');
  }

  toolCalls(): WireToolCall[] {
    return this.#calls.map((call) => ({
      id: call.id,
      name: call.name,
      arguments: call.args.join(''),
    }));
  }
}

/** An OpenAI chat message as the hand-written loops build them. */
export type LoopMessage =
  | { role: 'system' | 'user'; content: string }
  | {
      role: 'assistant';
      content: string;
      tool_calls?: {
        id: string;
        type: 'function';
        function: { name: string; arguments: string };
      }[];
    }
  | { role: 'tool'; tool_call_id: string; content: string };

/** The assistant message that replays a streamed reply with its tool calls. */
export function assistantMessage(text: string, calls: readonly WireToolCall[]): LoopMessage {
  return {
    role: 'assistant',
    content: text,
    tool_calls: calls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    })),
  };
}
