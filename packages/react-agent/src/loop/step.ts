import type { JsonObject, Msg, ToolUseBlock } from '@rxagent/core';

/** Why a ReActAgent call ended (`reply.metadata.generateReason`). */
export type GenerateReason =
  | 'stop'
  | 'tool_calls_stopped'
  | 'acting_stopped'
  | 'interrupted'
  | 'max_iterations'
  | 'structured_output';

/** One step of the reason → act loop. */
export type Step =
  | { readonly kind: 'reason' }
  | {
      readonly kind: 'act';
      readonly calls: readonly ToolUseBlock[];
      readonly invalidArguments: JsonObject;
    }
  | { readonly kind: 'summary' }
  | { readonly kind: 'final'; readonly reply: Msg; readonly reason: GenerateReason };

/** What `onFinalAnswer` decides about a reply without tool calls. */
export type FinalAnswerDecision =
  | { readonly accept: true; readonly reply: Msg }
  | { readonly accept: false; readonly keepDraft: boolean; readonly feedback: readonly Msg[] };
