import type { HookEvent } from '../hooks/hookEvent.js';
import type { Msg } from '../message/msg.js';

/** The last event of a `stream()`: the call's reply. */
export interface ReplyEvent {
  readonly type: 'reply';
  readonly msg: Msg;
}

/** A read-only snapshot of a hook event (without its `stopAgent` control). */
export type HookEventSnapshot = {
  readonly [K in HookEvent['type']]: Readonly<
    Omit<Extract<HookEvent, { type: K }>, 'stopAgent' | 'stopRequested'>
  >;
}[HookEvent['type']];

/** What `stream()` emits: a snapshot of every hook event of the call, then the reply. */
export type AgentEvent = HookEventSnapshot | ReplyEvent;

/** Freezes a shallow copy of `event`: O(1) in the size of the conversation. */
export function snapshotOf(event: HookEvent): HookEventSnapshot {
  return Object.freeze({ ...event }) as HookEventSnapshot;
}
