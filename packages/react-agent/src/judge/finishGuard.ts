import type { AgentBase, JsonObject, Msg, Usage } from '@rxagent/core';
import type { Observable } from 'rxjs';

/** What a finish guard sees: the draft final answer and the conversation it answers. */
export interface FinishGuardInput {
  readonly agent: AgentBase;
  readonly draft: Msg;
  /** The conversation so far (memory), without the draft. */
  readonly messages: readonly Msg[];
  /**
   * What the draft must answer, in order: the call's own input plus every message steered
   * into it (for a call resumed without input, the latest message from the user before it).
   */
  readonly request: readonly Msg[];
  /** How many drafts of this call the guard has already rejected. */
  readonly rejections: number;
  readonly signal: AbortSignal;
  /** Records the guard's own model usage: the reply's `metadata.judgeUsage`, apart from `usage`. */
  addUsage(usage: Usage | undefined): void;
}

/** A guard's decision; `details` is recorded in the reply's `metadata.finishGuard`. */
export type FinishVerdict =
  | { readonly pass: true; readonly details?: JsonObject }
  | { readonly pass: false; readonly feedback: string; readonly details?: JsonObject };

/**
 * Checks a draft final answer before the ReActAgent accepts it. A rejected draft is not
 * stored; the feedback goes back to the model and it tries again.
 */
export interface FinishGuard {
  /** Cold; emits one verdict. An error is treated as a pass (fail-open) by the agent. */
  check(input: FinishGuardInput): Observable<FinishVerdict>;
}
