import type { JsonObject, Msg, ToolDecisions } from '@rxagent/core';

/** The JSON options of a call that cross the ingress: the step bound, the budget and who is asking. */
export interface WireCallOptions {
  readonly maxIters?: number;
  readonly budget?: JsonObject;
  readonly callContext?: JsonObject;
}

/** What the `call` handler takes. */
export interface CallRequest {
  readonly input?: Msg | readonly Msg[];
  readonly options?: WireCallOptions;
  /** Names the run for `events` (default: the invocation id). */
  readonly runId?: string;
}

/** What the `observe` handler takes. */
export interface ObserveRequest {
  readonly input: Msg | readonly Msg[];
}

/** What the `interrupt` handler takes. */
export interface InterruptRequest {
  readonly message?: Msg;
}

/** What the `steer` handler takes: what `agent.steer()` takes. */
export interface SteerRequest {
  readonly input: string | Msg | readonly Msg[];
}

/** What the `decide` handler takes: the `toolDecisions` options. */
export type DecideRequest = ToolDecisions;

/** What the `events` handler takes: the run and the last `seq` the reader has. */
export interface EventsRequest {
  readonly runId: string;
  readonly after?: number;
}

/** A call waiting for `decide`, as kept in the object's state. */
export interface PendingApproval {
  readonly runId: string;
  readonly awakeableId: string;
  readonly pendingToolCalls: JsonObject[];
  readonly approvalRequired: string[];
}
