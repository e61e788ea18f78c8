import {
  type ChatChunk,
  type ContentBlock,
  freezeMsg,
  isJsonObject,
  isValidToolCallIndex,
  type Msg,
  type ReasoningChunkEvent,
  type ToolCallDelta,
  type ToolUseBlock,
} from '@rxagent/core';
import { ArgumentsScanner } from './argumentsScanner.js';

/** A tool call being streamed: its block as hooks see it, and how far its arguments got. */
interface CallDraft {
  block: ToolUseBlock;
  readonly args: string[];
  readonly scanner: ArgumentsScanner;
}

/**
 * Builds `reasoningChunk` events for one streamed reply. `accumulated` holds the thinking,
 * the text and a `tool_use` block for every tool call begun so far, whose `input` is `{}`
 * until its arguments are complete (their top-level JSON object closed; they are parsed
 * once, then). Each event costs O(1) amortised plus one entry per tool call, not O(reply so
 * far): the text grows by appending (a rope in V8), arguments are scanned once as they
 * arrive, and a call's block is replaced only when its id, name or input changes.
 */
export class ChunkEventBuilder {
  #text = '';
  #thinking = '';
  /** Calls in the order they began. */
  readonly #calls: CallDraft[] = [];
  /** The call open at each index (as `ChatResponseAccumulator` pairs deltas with calls). */
  readonly #open: (CallDraft | undefined)[] = [];

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
    for (const toolCall of chunk.toolCalls ?? []) {
      this.#addToolCall(toolCall);
      events.push(this.#event({ toolCall }));
    }
    return events;
  }

  #addToolCall(delta: ToolCallDelta): void {
    // A malformed index fails the reply when it completes; hooks see no block for it.
    if (!isValidToolCallIndex(delta.index)) return;
    let call = this.#open[delta.index];
    if (!call || (delta.id && call.block.id && delta.id !== call.block.id)) {
      call = {
        block: { type: 'tool_use', id: '', name: '', input: {} },
        args: [],
        scanner: new ArgumentsScanner(),
      };
      this.#open[delta.index] = call;
      this.#calls.push(call);
    }
    const { block } = call;
    const id = delta.id || block.id;
    // OpenAI sends the name once; some servers repeat it in every delta, others split it.
    const name = delta.name && delta.name !== block.name ? block.name + delta.name : block.name;
    let input = block.input;
    if (delta.arguments) {
      call.args.push(delta.arguments);
      const wasComplete = call.scanner.complete;
      call.scanner.scan(delta.arguments);
      if (call.scanner.complete && !wasComplete) input = parsedObject(call.args.join(''));
      else if (!call.scanner.complete && wasComplete) input = {};
    }
    if (id !== block.id || name !== block.name || input !== block.input) {
      call.block = { type: 'tool_use', id, name, input };
    }
  }

  #event(delta: ReasoningChunkEvent['delta']): ReasoningChunkEvent {
    const content: ContentBlock[] = [];
    if (this.#thinking) content.push({ type: 'thinking', thinking: this.#thinking });
    content.push({ type: 'text', text: this.#text });
    for (const call of this.#calls) content.push(call.block);
    return {
      type: 'reasoningChunk',
      agent: this.agent,
      delta,
      // Frozen like every Msg hooks see: only this event's new objects (the content array,
      // the text and thinking blocks) are frozen here; a call's block and the draft's
      // metadata were frozen by the first event that held them and are skipped.
      accumulated: freezeMsg({ ...this.draft, content }),
    };
  }
}

function parsedObject(text: string): ToolUseBlock['input'] {
  try {
    const value: unknown = JSON.parse(text);
    return isJsonObject(value) ? value : {};
  } catch {
    return {};
  }
}
