import type { Budget } from '../budget/budget.js';
import type { StepJournal } from '../durable/stepJournal.js';
import type { JsonObject } from '../json.js';
import type { Msg } from '../message/msg.js';

/** A schema for structured output: a zod (v3 or v4) schema or a plain JSON Schema object. */
export type StructuredOutputSchema = object;

/** What `call()`, `stream()` and `reply()` take: a string (sent as a user message), a Msg or Msgs. */
export type CallInput = string | Msg | readonly Msg[];

/** Per-call options of `call()`, `stream()` and `reply()`. */
export interface CallOptions {
  /**
   * Aborting it cancels the call, like unsubscribing (a durable call saves nothing more),
   * except that the call fails with `CallAbortedError` (named `AbortError`, the signal's
   * reason as `cause`). Already aborted, the call fails so at once: nothing is stored,
   * saved or run.
   */
  readonly signal?: AbortSignal;
  /** Ask for a validated object in `reply.metadata.response` (StructuredOutputAgent only). */
  readonly structuredOutput?: StructuredOutputSchema;
  /**
   * Reasoning steps this call may take before its tool-less summary, overriding the agent's
   * own bound (ReActAgent); a positive integer.
   */
  readonly maxIters?: number;
  /**
   * What this call may spend (ReActAgent): replaces the agent's `budget` for the call. An
   * agent called as a tool gets its caller's remaining budget this way.
   */
  readonly budget?: Budget;
  /**
   * Who is asking: a JSON object (user, tenant, roles, ...) that every hook event of this
   * call (`event.callContext`), every tool (`execute(args, { callContext })`), `needsApproval`
   * and a ReActAgent's `approvalRules[].when` can read, so a permission check can refuse one
   * user what it allows another. Kept with a durable checkpoint (a recovered call has it) and
   * passed to agents called as tools. Frozen for the call; not sent to the model.
   */
  readonly callContext?: JsonObject;
  /**
   * The agent and tool call this call runs inside, when an agent's tool called it
   * (`agent.asTool()` sets it): hooks see it on `preCall` (a tracer nests the call's span
   * under that tool call's).
   */
  readonly caller?: CallerRef;
  /**
   * A durable-execution engine's journal for this call (see `StepJournal`): a ReActAgent
   * runs each model request and each tool run of the call as one journaled step, so a call
   * the engine retries after a crash replays them instead of asking or running again.
   */
  readonly journal?: StepJournal;
}

/**
 * Which agent's tool call a call runs inside (see `CallOptions.caller`): `agent` is that
 * agent (an `Agent`; typed by what every agent has, so this module needs no agent import).
 */
export interface CallerRef {
  readonly agent: { readonly id: string; readonly name: string };
  readonly toolCallId: string;
}

/** What `interrupt()` was given; passed to `handleInterrupt`. */
export interface InterruptContext {
  readonly message?: Msg;
  readonly source: 'user' | 'system';
}
