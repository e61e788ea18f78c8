import {
  type ChatChunk,
  isValidToolCallIndex,
  MAX_TOOL_CALL_INDEX,
  ModelError,
  type Usage,
} from '@rxagent/core';

/** What a content block index holds, as its `content_block_start` said. */
type BlockKind = 'text' | 'thinking' | 'redacted' | 'tool' | 'other';

interface OpenBlock {
  readonly kind: BlockKind;
  /** For a tool: its position among the reply's tool calls. */
  readonly toolIndex: number;
  /** For a tool: whether `input_json_delta` arrived (else its start's `input` is the input). */
  hasInput: boolean;
  readonly startInput: unknown;
}

/** Anthropic's stop reasons in the names the rest of rxagent uses. */
const FINISH_REASONS: Readonly<Record<string, string>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  refusal: 'content_filter',
};

/**
 * Reads the events of one streamed Messages API response into `ChatChunk`s, one event at a
 * time: text, thinking and its `signature`, `redacted_thinking` blocks, tool calls (numbered
 * in order of their blocks, arguments from `input_json_delta`), and at `message_delta` the
 * finish reason and the usage (input tokens including cache reads and writes). Events that
 * carry nothing for the reply (`message_start`, `ping`, unknown types) give `undefined`.
 *
 * A malformed event (not an object, a delta for a block never started, a bad index) throws
 * a `ModelError` naming what was wrong. `finished` is true once `message_stop` arrived.
 */
export class StreamEventReader {
  readonly #blocks = new Map<number, OpenBlock>();
  #toolCount = 0;
  #usage = {
    input: 0,
    output: 0,
    cacheRead: undefined as number | undefined,
    cacheWrite: undefined as number | undefined,
  };
  #finished = false;

  /** Whether `message_stop` has arrived. */
  get finished(): boolean {
    return this.#finished;
  }

  /** The chunk `event` adds to the reply, if any. */
  read(event: unknown): ChatChunk | undefined {
    if (event === null || typeof event !== 'object') {
      throw malformed(`an event that is not an object (${typeof event})`);
    }
    const record = event as Record<string, unknown>;
    switch (record['type']) {
      case 'message_start':
        this.#addUsage(objectField(record['message'], 'usage'));
        return undefined;
      case 'content_block_start':
        return this.#start(record);
      case 'content_block_delta':
        return this.#delta(record);
      case 'content_block_stop':
        return this.#stop(record);
      case 'message_delta':
        return this.#messageDelta(record);
      case 'message_stop':
        this.#finished = true;
        return undefined;
      default:
        return undefined;
    }
  }

  #start(event: Record<string, unknown>): ChatChunk | undefined {
    const index = blockIndex(event);
    const block = event['content_block'];
    if (block === null || typeof block !== 'object') {
      throw malformed(`content_block_start #${index} without a content_block`);
    }
    const content = block as Record<string, unknown>;
    const open = (kind: BlockKind, toolIndex = -1): void => {
      this.#blocks.set(index, { kind, toolIndex, hasInput: false, startInput: content['input'] });
    };
    switch (content['type']) {
      case 'text':
        open('text');
        return nonEmpty(content['text']) ? { text: content['text'] as string } : undefined;
      case 'thinking':
        open('thinking');
        return nonEmpty(content['thinking'])
          ? { thinking: content['thinking'] as string }
          : undefined;
      case 'redacted_thinking':
        open('redacted');
        if (typeof content['data'] !== 'string') {
          throw malformed(`redacted_thinking block #${index} without its data`);
        }
        return { redactedThinking: content['data'] };
      case 'tool_use': {
        const toolIndex = this.#toolCount++;
        if (!isValidToolCallIndex(toolIndex)) {
          throw malformed(`more than ${MAX_TOOL_CALL_INDEX + 1} tool calls in one reply`);
        }
        if (typeof content['id'] !== 'string' || typeof content['name'] !== 'string') {
          throw malformed(`tool_use block #${index} without a string id and name`);
        }
        open('tool', toolIndex);
        return { toolCalls: [{ index: toolIndex, id: content['id'], name: content['name'] }] };
      }
      default:
        // Server tools and blocks of later API versions carry nothing this model reports.
        open('other');
        return undefined;
    }
  }

  #delta(event: Record<string, unknown>): ChatChunk | undefined {
    const index = blockIndex(event);
    const block = this.#blocks.get(index);
    if (block === undefined)
      throw malformed(`a content_block_delta for block #${index}, never started`);
    const delta = event['delta'];
    if (delta === null || typeof delta !== 'object') {
      throw malformed(`content_block_delta #${index} without a delta`);
    }
    const fields = delta as Record<string, unknown>;
    switch (fields['type']) {
      case 'text_delta':
        return nonEmpty(fields['text']) ? { text: fields['text'] as string } : undefined;
      case 'thinking_delta':
        return nonEmpty(fields['thinking'])
          ? { thinking: fields['thinking'] as string }
          : undefined;
      case 'signature_delta':
        if (typeof fields['signature'] !== 'string') {
          throw malformed(`signature_delta #${index} without a string signature`);
        }
        return { thinkingSignature: fields['signature'] };
      case 'input_json_delta': {
        if (block.kind !== 'tool')
          throw malformed(`input_json_delta for block #${index}, not a tool_use`);
        const json = fields['partial_json'];
        if (typeof json !== 'string')
          throw malformed(`input_json_delta #${index} without partial_json`);
        if (json === '') return undefined;
        block.hasInput = true;
        return { toolCalls: [{ index: block.toolIndex, arguments: json }] };
      }
      default:
        return undefined;
    }
  }

  #stop(event: Record<string, unknown>): ChatChunk | undefined {
    const index = blockIndex(event);
    const block = this.#blocks.get(index);
    if (block?.kind !== 'tool' || block.hasInput) return undefined;
    // A call whose input came whole in its start block (or was empty).
    const input = block.startInput;
    const args = input !== null && typeof input === 'object' ? JSON.stringify(input) : '{}';
    return { toolCalls: [{ index: block.toolIndex, arguments: args }] };
  }

  #messageDelta(event: Record<string, unknown>): ChatChunk {
    this.#addUsage(event['usage']);
    const stop = objectField(event, 'delta')?.['stop_reason'];
    const chunk: ChatChunk = { usage: this.#currentUsage() };
    if (typeof stop === 'string') chunk.finishReason = FINISH_REASONS[stop] ?? stop;
    return chunk;
  }

  /** Usage counts are cumulative: a later event's count replaces the earlier one. */
  #addUsage(usage: unknown): void {
    if (usage === null || typeof usage !== 'object') return;
    const fields = usage as Record<string, unknown>;
    const count = (name: string): number | undefined => {
      const value = fields[name];
      return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
    };
    this.#usage.input = count('input_tokens') ?? this.#usage.input;
    this.#usage.output = count('output_tokens') ?? this.#usage.output;
    this.#usage.cacheRead = count('cache_read_input_tokens') ?? this.#usage.cacheRead;
    this.#usage.cacheWrite = count('cache_creation_input_tokens') ?? this.#usage.cacheWrite;
  }

  #currentUsage(): Usage {
    const { input, output, cacheRead, cacheWrite } = this.#usage;
    const inputTokens = input + (cacheRead ?? 0) + (cacheWrite ?? 0);
    const usage: Usage = {
      inputTokens,
      outputTokens: output,
      totalTokens: inputTokens + output,
      cachedInputTokens: cacheRead ?? 0,
    };
    if (cacheRead !== undefined) usage.cacheReadTokens = cacheRead;
    if (cacheWrite !== undefined) usage.cacheWriteTokens = cacheWrite;
    return usage;
  }
}

function blockIndex(event: Record<string, unknown>): number {
  const index = event['index'];
  if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index > 1024) {
    throw malformed(
      `a ${String(event['type'])} event with the block index ${JSON.stringify(index)?.slice(0, 40)}`,
    );
  }
  return index;
}

function objectField(value: unknown, name: string): Record<string, unknown> | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const field = (value as Record<string, unknown>)[name];
  return field !== null && typeof field === 'object'
    ? (field as Record<string, unknown>)
    : undefined;
}

function nonEmpty(value: unknown): boolean {
  return typeof value === 'string' && value !== '';
}

function malformed(what: string): ModelError {
  return new ModelError(
    `The Messages API stream sent ${what}: the server is not speaking the Anthropic streaming protocol.`,
  );
}
