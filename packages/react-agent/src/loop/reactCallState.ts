import type { CallContext, ToolChoice, Toolkit } from '@rxagent/core';
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
  /** Dedupe keys of tool calls already made in this call → their result text. */
  readonly seenCalls = new Map<string, { readonly id: string; result?: string }>();

  constructor(
    readonly context: CallContext,
    readonly toolkit: Toolkit,
    readonly transcript: Transcript,
  ) {}

  /** The name of the agent running the call. */
  get agentName(): string {
    return this.transcript.agentName;
  }
}
