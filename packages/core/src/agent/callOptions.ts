import type { Msg } from '../message/msg.js';

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
