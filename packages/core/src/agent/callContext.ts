import type { Msg } from '../message/msg.js';
import type { Usage } from '../model/chatModel.js';

/** A schema for structured output: a zod (v3 or v4) schema or a plain JSON Schema object. */
export type StructuredOutputSchema = object;

/** Per-call options of `call()` and `stream()`. */
export interface CallOptions {
  /** Aborting it cancels the call, like unsubscribing. */
  readonly signal?: AbortSignal;
  /** Ask for a validated object in `reply.metadata.response` (StructuredOutputAgent only). */
  readonly structuredOutput?: StructuredOutputSchema;
}

/** What `interrupt()` was given; passed to `handleInterrupt`. */
export interface InterruptContext {
  readonly message?: Msg;
  readonly source: 'user' | 'system';
}

/**
 * The state of one call, handed to `doCall`. `signal` aborts on unsubscribe, on `interrupt()`
 * and when `options.signal` aborts: pass it to every model request and tool.
 */
export interface CallContext {
  readonly callId: string;
  readonly signal: AbortSignal;
  readonly options: CallOptions;
  /** The call's system prompt, as preCall hooks left it. */
  readonly systemPrompt: string;
  /** Adds a model request's token usage to the call's total (`reply.metadata.usage`). */
  addUsage(usage: Usage | undefined): void;
  /** The usage summed so far, if any request reported one. */
  readonly usage: Usage | undefined;
}
