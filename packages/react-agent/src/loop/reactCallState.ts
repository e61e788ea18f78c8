import type {
  CallContext,
  JsonObject,
  ModelResponseInfo,
  ToolChoice,
  Toolkit,
} from '@rxagent/core';

/**
 * The mutable state of one ReActAgent call, shared by its steps. Subclasses read and set it
 * from the protected extension points (`toolChoice` forces the next request only).
 */
export class ReActCallState {
  /** Reasoning steps taken in this call. */
  iterations = 0;
  /** Forces the next request's `tool_choice`; cleared after that request. */
  toolChoice: ToolChoice | undefined;
  /** Drafts the finish guard rejected in this call. */
  guardRejections = 0;
  /** Recorded on the final reply as `metadata.finishGuard`. */
  guardDetails: JsonObject | undefined;
  /** A postActing hook asked to stop after the current batch. */
  stopAfterBatch = false;
  /** Usage and finish reason of the latest model response, for its postReasoning/postSummary event. */
  lastResponse: ModelResponseInfo | undefined;
  /** Dedupe keys of tool calls already made in this call → their result text. */
  readonly seenCalls = new Map<string, { readonly id: string; result?: string }>();

  constructor(
    readonly context: CallContext,
    readonly toolkit: Toolkit,
  ) {}
}
