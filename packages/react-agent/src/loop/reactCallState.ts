import type { CallContext, ToolChoice, Toolkit } from '@rxagent/core';
import { UsageMeter } from '../budget/usageMeter.js';
import type { OutputGuard } from '../guardrails/outputGuard.js';
import type { ResultOffload } from '../offload/resultOffload.js';
import type { ApprovalRule } from './approvalRules.js';
import { CallStats } from './callStats.js';
import type { RememberedApprovals } from './rememberedApprovals.js';
import type { ToolCheckpoints } from './toolCheckpoints.js';
import type { Transcript } from './transcript.js';

/**
 * The room of one ReActAgent call: its context (signal, hooks, usage), the toolkit it calls,
 * the transcript that does every memory write, and the few counters its steps share.
 * Subclasses read and set it from the protected extension points (`toolChoice` forces the
 * next request only).
 */
export class ReActCallState {
  /** Reasoning steps taken in this call. */
  iterations = 0;
  /** Forces the next request's `tool_choice`; cleared after that request. */
  toolChoice: ToolChoice | undefined;
  /** Drafts the finish guard rejected in this call. */
  guardRejections = 0;
  /** Reasoning steps this call may take (the agent's `maxIters` or the call's own). */
  maxIters = 10;
  /** Consecutive failing tool rounds after which the loop stops (`maxToolFailures`). */
  maxToolFailures = 3;
  /** Consecutive reasoning steps whose tool calls all failed. */
  toolFailureStreak = 0;
  /**
   * Tools whose failing results do not count towards `maxToolFailures`, because a budget of
   * their own bounds them (structured output's `generate_response`).
   */
  readonly uncountedTools = new Set<string>();
  /** Whether an empty final answer already got its reminder in this call. */
  emptyAnswerReminded = false;
  /** Whether a final answer while the plan had open subtasks already got its reminder. */
  planReminded = false;
  /** The plan notebook's `version` when the call started (`plan: true`). */
  planVersion = 0;
  /** Model calls, tool calls, elapsed time and judge usage (`reply.metadata.stats`). */
  readonly stats = new CallStats();
  /** Dedupe keys of tool calls already made in this call → their result text. */
  readonly seenCalls = new Map<string, { readonly id: string; result?: string }>();
  /** The call's usage and budget: every request's usage goes through it. */
  meter: UsageMeter;
  /** The agent's `approvalRules`, first match decides. */
  approvalRules: readonly ApprovalRule[] = [];
  /** The tools approved for the rest of the conversation (`toolDecisions({ remember })`). */
  approvals: RememberedApprovals | undefined;
  /** The checkpoints of a durable call (`durable` agent option); none otherwise. */
  checkpoints: ToolCheckpoints | undefined;
  /** Holds streamed replies back until the output guardrails passed them; none without any. */
  outputGuard: OutputGuard | undefined;
  /** Where long tool results go (`offload` agent option); none otherwise. */
  offload: ResultOffload | undefined;

  constructor(
    readonly context: CallContext,
    readonly toolkit: Toolkit,
    readonly transcript: Transcript,
  ) {
    this.meter = new UsageMeter(context, undefined, '');
  }

  /** The name of the agent running the call. */
  get agentName(): string {
    return this.transcript.agentName;
  }
}
