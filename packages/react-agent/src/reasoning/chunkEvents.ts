import type { ChatChunk, ContentBlock, Msg, ReasoningChunkEvent } from '@rxagent/core';

/**
 * Builds `reasoningChunk` events for one streamed reply. The accumulated text grows by
 * appending (a rope in V8), so each event costs O(1) amortised, not O(text so far).
 */
export class ChunkEventBuilder {
  #text = '';
  #thinking = '';

  constructor(
    private readonly agent: ReasoningChunkEvent['agent'],
    private readonly draft: Omit<Msg, 'content'>,
  ) {}

  /** The events of one chunk: one for its text/thinking, one per tool-call delta. */
  eventsOf(chunk: ChatChunk): ReasoningChunkEvent[] {
    if (chunk.text) this.#text += chunk.text;
    if (chunk.thinking) this.#thinking += chunk.thinking;
    const events: ReasoningChunkEvent[] = [];
    if (chunk.text || chunk.thinking) {
      events.push(
        this.#event({
          ...(chunk.text && { text: chunk.text }),
          ...(chunk.thinking && { thinking: chunk.thinking }),
        }),
      );
    }
    for (const toolCall of chunk.toolCalls ?? []) events.push(this.#event({ toolCall }));
    return events;
  }

  #event(delta: ReasoningChunkEvent['delta']): ReasoningChunkEvent {
    const content: ContentBlock[] = [];
    if (this.#thinking) content.push({ type: 'thinking', thinking: this.#thinking });
    content.push({ type: 'text', text: this.#text });
    return {
      type: 'reasoningChunk',
      agent: this.agent,
      delta,
      accumulated: { ...this.draft, content },
    };
  }
}
