import type { GenerateReason, JsonObject, Msg, ToolUseBlock } from '@rxagent/core';
import type { Decisions, Resolutions } from './decisions.js';

/** Why a ReActAgent call ended (`reply.metadata.generateReason`); defined in core. */
export type { GenerateReason };

/** The step that ends the loop with a reply. */
export interface FinalStep {
  readonly kind: 'final';
  readonly reply: Msg;
  readonly reason: GenerateReason;
  /** Extra reply metadata the deciding step recorded (e.g. `finishGuard`). */
  readonly metadata?: JsonObject;
}

/** A step the loop runs. */
export type RunnableStep =
  | { readonly kind: 'reason' }
  | {
      readonly kind: 'act';
      readonly calls: readonly ToolUseBlock[];
      readonly invalidArguments: JsonObject;
      /** A human's decisions about the calls (resuming an `approval_required` stop). */
      readonly decisions?: Decisions;
      /** What approval rules and remembered approvals decided about calls, by id. */
      readonly resolved?: Resolutions;
    }
  | { readonly kind: 'summary'; readonly reason?: 'max_iterations' | 'tool_failures' };

/** One step of the reason → act loop. */
export type Step = RunnableStep | FinalStep;

/**
 * What `onFinalAnswer` decides about a reply without tool calls. `details` (a finish guard's
 * verdict) is recorded on the final reply as `metadata.finishGuard`.
 */
export type FinalAnswerDecision =
  | { readonly accept: true; readonly reply: Msg; readonly details?: JsonObject }
  | {
      readonly accept: false;
      readonly keepDraft: boolean;
      readonly feedback: readonly Msg[];
      readonly details?: JsonObject;
    };
