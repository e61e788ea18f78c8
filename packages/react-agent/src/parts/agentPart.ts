import type {
  CallContext,
  Hook,
  JsonObject,
  Msg,
  StateModule,
  Tool,
  ToolUseBlock,
} from '@rxagent/core';
import type { Observable } from 'rxjs';
import type { Admission } from '../guardrails/agentGuardrails.js';
import type { ReActCallState } from '../loop/reactCallState.js';
import type { FinalAnswerDecision, FinalStep } from '../loop/step.js';
import type { NextStep } from '../memory/agentLongTermMemory.js';

/**
 * One option of a ReActAgent (long-term memory, guardrails, skills, offload, plan, handoffs,
 * approval rules, finish guard) as a collaborator of the agent and its calls: what it adds
 * once (tools, a byte-stable system-prompt section, a state module, a hook) and what it does
 * at the step boundaries the loop already has. Every member is optional; the constructor
 * builds one part per option set (none for an option left unset) and the loop asks the list
 * (`AgentParts`) at each boundary, in the list's order. A callback returns what it decided;
 * it sets fields of the call's state only in `startCall`.
 */
export interface AgentPart {
  /** The option it stands for, e.g. `'guardrails'`. */
  readonly name: string;
  /** Tools added to every call's toolkit (after the agent's own, in part order). */
  // biome-ignore lint/suspicious/noExplicitAny: a tool of any arguments, as `Toolkit.extend` takes
  readonly tools?: readonly Tool<any>[];
  /** Appended to the system prompt once, at construction (so it stays byte-stable). */
  readonly promptSection?: string;
  /** A module of the agent's state (`stateDict()[key]`). */
  readonly state?: { readonly key: string; readonly module: StateModule };
  /** A hook added to the agent (e.g. around each tool call). */
  readonly hook?: Hook;
  /**
   * Before anything of a fresh call is stored or sent: the input to go on with, or a reply
   * that ends the call at once.
   */
  admit?(msgs: Msg[], context: CallContext): Observable<Admission>;
  /** Once per call, on its new state, before its first step. */
  startCall?(state: ReActCallState): void;
  /**
   * Wraps the call's steps: may run work before the first one (before the call's first
   * request) and after a final one. `fresh`: the input was just admitted (not a resume).
   */
  wrapSteps?(
    next: NextStep,
    state: ReActCallState,
    input: readonly Msg[],
    fresh: boolean,
  ): NextStep;
  /** A message sent last with each reasoning request and never stored; none when `undefined`. */
  requestHint?(): Msg | undefined;
  /**
   * About a reply without tool calls (after the empty-answer check): a decision, or
   * `undefined` to leave it to the next part (none deciding: accepted).
   */
  finalAnswer?(
    reply: Msg,
    state: ReActCallState,
  ): FinalAnswerDecision | Observable<FinalAnswerDecision> | undefined;
  /** After a tool batch ran: a final step that ends the call (a handoff), or `undefined`. */
  afterActing?(
    calls: readonly ToolUseBlock[],
    results: readonly Msg[],
    state: ReActCallState,
  ): FinalStep | undefined;
  /** Metadata added to the call's final reply, or `undefined`. */
  replyMetadata?(state: ReActCallState): JsonObject | undefined;
  /** Once when a call ends, however it ends, after its open tool calls were sealed. */
  endCall?(state: ReActCallState): void;
}
