import type { Observable } from 'rxjs';
import type { AgentBase } from '../agent/agentBase.js';
import type { JsonObject } from '../json.js';
import type { ImageBlock, TextBlock } from '../message/contentBlock.js';

/** What a tool produces: text, or text and image blocks. */
export type ToolOutput = string | ReadonlyArray<TextBlock | ImageBlock>;

/**
 * What `execute` may return. An Observable that emits several times streams `actingChunk`
 * events; its last value is the result.
 */
export type ToolReturn = ToolOutput | Promise<ToolOutput> | Observable<ToolOutput>;

/** Handed to every tool run. Stop work when `signal` aborts (interrupt, unsubscribe, timeout). */
export interface ToolExecutionContext {
  readonly signal: AbortSignal;
  readonly toolCallId: string;
  readonly agent?: AgentBase;
}

/** A zod v3 or v4 schema (anything with `safeParse`), or a plain JSON Schema object. */
export type ToolParameters = object;

/** The argument type a zod v3 or v4 schema parses to; `JsonObject` for a plain JSON Schema. */
export type InferToolArgs<S> = S extends { _zod: { output: infer O } }
  ? O
  : S extends { _output: infer O }
    ? O
    : JsonObject;

/** A function the model can call. Build one with `tool()`. */
export interface Tool<Args = unknown> {
  readonly name: string;
  readonly description: string;
  /** A zod v3/v4 schema or a JSON Schema for the arguments object. */
  readonly parameters: ToolParameters;
  readonly execute: (args: Args, context: ToolExecutionContext) => ToolReturn;
  /**
   * Whether an identical repeated call (same arguments, same agent call) is answered without
   * running again. Default true; false for tools whose answer changes per call.
   */
  readonly dedupe?: boolean;
  /** Abort a run after this many milliseconds (overrides the toolkit's default). */
  readonly timeoutMs?: number;
}

/** What `tool()` takes. */
export interface ToolDefinition<S extends ToolParameters> {
  readonly name: string;
  readonly description: string;
  readonly parameters: S;
  readonly execute: (args: InferToolArgs<S>, context: ToolExecutionContext) => ToolReturn;
  readonly dedupe?: boolean;
  readonly timeoutMs?: number;
}

/** A tool call to run: `input` is parsed arguments, or `rawArguments` the JSON text to parse. */
export interface ToolCallRequest {
  readonly id: string;
  readonly name: string;
  readonly input?: unknown;
  readonly rawArguments?: string;
}
