import type { PendingToolCall } from './message/pendingToolCall.js';

/**
 * The closed set of error codes rxagent raises. Callers branch on `code`, never on message
 * text; a subclass exists only where a caller acts differently.
 */
export type AgentErrorCode =
  | 'AGENT_BUSY'
  | 'INTERRUPTED'
  | 'HOOK_FAILED'
  | 'NO_REPLY'
  | 'TOOL_FAILED'
  | 'MODEL_FAILED'
  | 'SCRIPT_EXHAUSTED'
  | 'STRUCTURED_OUTPUT_FAILED'
  | 'STRUCTURED_OUTPUT_UNSUPPORTED'
  | 'STATE_INVALID'
  | 'SESSION_CORRUPT'
  | 'INVALID_ARGUMENT'
  | 'PIPELINE_FAILED'
  | 'OBSERVE_FAILED'
  | 'CONTEXT_WINDOW_EXCEEDED'
  | 'MCP_FAILED'
  | 'SESSION_CONFLICT'
  | 'STORE_UNAVAILABLE'
  | 'HANDOFF_FAILED'
  | 'REMOTE_RUN_FAILED'
  | 'A2A_FAILED'
  | 'CASSETTE_MISMATCH'
  | 'APPROVAL_PENDING'
  | 'ABORTED'
  | 'RUN_UNFINISHED';

/** Base of every error rxagent raises; `cause` keeps the original error when there is one. */
export abstract class AgentError extends Error {
  abstract readonly code: AgentErrorCode;
}

/** `call()` was subscribed while the same agent still had a call in flight. */
export class AgentBusyError extends AgentError {
  override readonly name = 'AgentBusyError';
  readonly code = 'AGENT_BUSY';
  constructor(readonly agentName: string) {
    super(
      `Agent is still running: "${agentName}" already has a call in flight; wait for it to finish or unsubscribe from it first.`,
    );
  }
}

/** Raised at a checkpoint after `interrupt()`; AgentBase turns it into an interrupt reply. */
export class InterruptedError extends AgentError {
  override readonly name = 'InterruptedError';
  readonly code = 'INTERRUPTED';
  constructor(
    readonly agentName: string,
    options?: ErrorOptions,
  ) {
    super(`Agent "${agentName}" was interrupted.`, options);
  }
}

/**
 * A call ended because its caller aborted `options.signal`: before it started (then it
 * stored, saved and ran nothing) or while it ran. Named `AbortError`, as aborts are, so
 * `isAbortError()` is true; `cause` is the signal's reason. (An `interrupt()` is no abort
 * of this kind: it ends the call with a reply.)
 */
export class CallAbortedError extends AgentError {
  override readonly name = 'AbortError';
  readonly code = 'ABORTED';
  constructor(
    readonly agentName: string,
    reason: unknown,
  ) {
    super(
      `The call to "${agentName}" was aborted by its signal${reasonText(reason)}.`,
      reason === undefined ? undefined : { cause: reason },
    );
  }
}

/** ` (<the reason's message>)` for an abort reason that says something, else nothing. */
function reasonText(reason: unknown): string {
  const text = reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : '';
  return text === '' ? '' : ` (${text})`;
}

/** A subclass's `doCall()` completed without emitting a reply. */
export class NoReplyError extends AgentError {
  override readonly name = 'NoReplyError';
  readonly code = 'NO_REPLY';
  constructor(readonly agentName: string) {
    super(
      `Agent "${agentName}": doCall() completed without emitting a reply; every call must produce exactly one Msg.`,
    );
  }
}

/** A chat model request failed; `status` is the HTTP status when there was one. */
export class ModelError extends AgentError {
  override readonly name = 'ModelError';
  readonly code = 'MODEL_FAILED';
  constructor(
    message: string,
    readonly details: { readonly status?: number; readonly retryable?: boolean } = {},
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
  /** The HTTP status of the failed request, when the model answered with one. */
  get status(): number | undefined {
    return this.details.status;
  }
  /** Whether retrying the same request may succeed (429, 5xx, connection errors). */
  get retryable(): boolean {
    return this.details.retryable ?? false;
  }
}

/** A `ScriptedChatModel` or test server was asked for more replies than it was given. */
export class ScriptExhaustedError extends AgentError {
  override readonly name = 'ScriptExhaustedError';
  readonly code = 'SCRIPT_EXHAUSTED';
}

/** A tool could not be registered or looked up (tool *runs* never throw: they return error results). */
export class ToolError extends AgentError {
  override readonly name = 'ToolError';
  readonly code = 'TOOL_FAILED';
  constructor(
    message: string,
    readonly toolName: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** A caller passed something rxagent cannot use; the message names it. */
export class InvalidArgumentError extends AgentError {
  override readonly name = 'InvalidArgumentError';
  readonly code = 'INVALID_ARGUMENT';
}

/** A structured-output call failed after its bounded retries; `lastProblem` says why. */
export class StructuredOutputError extends AgentError {
  override readonly name = 'StructuredOutputError';
  readonly code = 'STRUCTURED_OUTPUT_FAILED';
  constructor(
    message: string,
    readonly details: { readonly lastProblem: string; readonly issues?: readonly unknown[] },
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** `call(..., { structuredOutput })` on an agent class that cannot produce structured output. */
export class UnsupportedStructuredOutputError extends AgentError {
  override readonly name = 'UnsupportedStructuredOutputError';
  readonly code = 'STRUCTURED_OUTPUT_UNSUPPORTED';
  constructor(readonly agentClass: string) {
    super(
      `${agentClass} does not support structured output; use a StructuredOutputAgent (from @rxagent/structured-output) for call(msgs, { structuredOutput }).`,
    );
  }
}

/** A state dict does not have the shape the agent expects; `path` points at the bad part. */
export class StateError extends AgentError {
  override readonly name = 'StateError';
  readonly code = 'STATE_INVALID';
  constructor(
    message: string,
    readonly path: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/**
 * The first `call()` of a durable agent in a process found an unfinished call in the
 * checkpoint under its key (a process stopped during it): the call ran and saved nothing.
 * `recover()` continues that call (or unsubscribe it and call again to drop it: a call
 * after a `recover()` starts anew).
 */
export class UnfinishedRunError extends AgentError {
  override readonly name = 'UnfinishedRunError';
  readonly code = 'RUN_UNFINISHED';
  constructor(
    readonly agentName: string,
    /** The durable key, as given. */
    readonly key: string,
    where: string,
  ) {
    super(
      `${agentName}.call(): the checkpoint under ${where} holds an unfinished call; recover() it first (agent.recover()), then call again. Nothing was saved.`,
    );
  }
}

/** A session file exists but cannot be read back; `path` names the file. */
export class SessionCorruptError extends AgentError {
  override readonly name = 'SessionCorruptError';
  readonly code = 'SESSION_CORRUPT';
  constructor(
    message: string,
    readonly path: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/**
 * A hub subscriber's `observe()` failed on a message broadcast to it; `agentName` names that
 * subscriber and `cause` holds its error. The speaker's call does not fail: this error goes
 * to the speaker's `error` hooks, and delivery to the other subscribers goes on.
 */
export class ObserveError extends AgentError {
  override readonly name = 'ObserveError';
  readonly code = 'OBSERVE_FAILED';
  constructor(
    readonly agentName: string,
    readonly speakerName: string,
    options?: ErrorOptions,
  ) {
    const reason = options?.cause instanceof Error ? options.cause.message : String(options?.cause);
    super(
      `Agent "${agentName}" failed to observe a reply of "${speakerName}": ${reason}. The other subscribers still received it.`,
      options,
    );
  }
}

/**
 * A model request does not fit its context window even after compressing the conversation:
 * nothing was sent and memory is unchanged. `tokens` is what the smallest request counted,
 * `maxTokens` the limit.
 */
export class ContextWindowError extends AgentError {
  override readonly name = 'ContextWindowError';
  readonly code = 'CONTEXT_WINDOW_EXCEEDED';
  constructor(
    message: string,
    readonly tokens: number,
    readonly maxTokens: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/**
 * A handoff pipeline could not follow a handoff: its target is not among the pipeline's
 * agents, or the reply asked for one more hop than `maxHandoffs` allows. `path` lists the
 * agents called so far, in order; `target` is the agent the last reply asked for.
 */
export class HandoffError extends AgentError {
  override readonly name = 'HandoffError';
  readonly code = 'HANDOFF_FAILED';
  constructor(
    message: string,
    readonly path: readonly string[],
    readonly target: string,
  ) {
    super(message);
  }
}

/**
 * Not a failure: what a tool run ends with when tool calls made inside it (by a sub-agent it
 * called, see `agent.asTool()`) wait for a human decision. A ReActAgent running the tool
 * keeps the call open and ends its own call with `generateReason: 'approval_required'`,
 * listing `pendingToolCalls` (each with `metadata.path`) and `approvalRequired`; a later
 * `call(toolDecisions(...))` naming those ids runs the tool again with `context.resume`.
 * `agent` is the name of the sub-agent that stopped.
 */
export class ApprovalPendingError extends AgentError {
  override readonly name = 'ApprovalPendingError';
  readonly code = 'APPROVAL_PENDING';
  constructor(
    readonly agent: string,
    readonly pendingToolCalls: readonly PendingToolCall[],
    readonly approvalRequired: readonly string[],
  ) {
    super(
      `Agent "${agent}" waits for a decision about tool call(s) ${approvalRequired.join(', ')}.`,
    );
  }
}

/** One or more agents of a fan-out failed; `failures` lists each by agent name. */
export class PipelineError extends AggregateError {
  override readonly name = 'PipelineError';
  readonly code = 'PIPELINE_FAILED';
  constructor(
    readonly failures: ReadonlyArray<{ readonly agentName: string; readonly error: unknown }>,
  ) {
    super(
      failures.map((f) => f.error),
      `${failures.length} agent(s) failed: ${failures
        .map(
          (f) => `${f.agentName}: ${f.error instanceof Error ? f.error.message : String(f.error)}`,
        )
        .join('; ')}`,
    );
  }
}

/** Whether `error` is an abort (an AbortSignal fired or an interrupt), not a real failure. */
export function isAbortError(error: unknown): boolean {
  return (
    error instanceof Error && (error.name === 'AbortError' || error instanceof InterruptedError)
  );
}

/**
 * A versioned save found another version than the one it expected: someone saved the key in
 * between (another process or server). Load the key again, merge, and save with the new version.
 */
export class SessionConflictError extends AgentError {
  override readonly name = 'SessionConflictError';
  readonly code = 'SESSION_CONFLICT';
  constructor(
    readonly key: string,
    readonly expectedVersion: number,
    readonly actualVersion: number,
  ) {
    super(
      `Session key ${JSON.stringify(key)} is at version ${actualVersion}, not the expected ${expectedVersion}: someone saved it in between. Load it again, apply your change and save with the new version.`,
    );
  }
}

/**
 * A remote store (such as Redis) did not answer within its bounded wait or is not reachable;
 * `store` names it. A write that timed out may or may not have been applied (a versioned save
 * tells you which on retry); retry once the store is back.
 */
export class StoreUnavailableError extends AgentError {
  override readonly name = 'StoreUnavailableError';
  readonly code = 'STORE_UNAVAILABLE';
  constructor(
    message: string,
    readonly store: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/**
 * A replayed model received a request its cassette does not hold: `path` is the JSON path of
 * the first difference from the recorded request (`messages[2].content`), `expected` and
 * `actual` the two values there (JSON text, truncated), `exchange` the recorded exchange
 * compared (1-based).
 */
export class CassetteMismatchError extends AgentError {
  override readonly name = 'CassetteMismatchError';
  readonly code = 'CASSETTE_MISMATCH';
  constructor(
    message: string,
    readonly details: {
      readonly cassette: string;
      readonly exchange: number;
      readonly path: string;
      readonly expected: string;
      readonly actual: string;
    },
  ) {
    super(message);
  }
}
