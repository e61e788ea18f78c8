import type { HookEvent } from '../hooks/hookEvent.js';
import type { Msg } from '../message/msg.js';

/** The last event of a `stream()`: the call's reply. */
export interface ReplyEvent {
  readonly type: 'reply';
  readonly msg: Msg;
}

/** A read-only snapshot of a hook event (without its `stopAgent` and `deny` controls). */
export type HookEventSnapshot = {
  readonly [K in HookEvent['type']]: Readonly<
    Omit<Extract<HookEvent, { type: K }>, 'stopAgent' | 'stopRequested' | 'deny'>
  >;
}[HookEvent['type']];

/**
 * What `stream()` emits: a snapshot of every hook event of the call, then the reply. While
 * a tool runs another agent (`agent.asTool()`, at any depth), that agent's hook events come
 * too, each with `path`: the agents' names from the streamed agent (outermost) to the one
 * whose event it is, e.g. `['travel', 'booking']`; `event.agent` is that agent. The streamed
 * agent's own events have no `path`, and a nested agent's reply arrives as its `postCall`
 * event, so the one `reply` event is the streamed call's own.
 */
export type AgentEvent = (HookEventSnapshot & { readonly path?: readonly string[] }) | ReplyEvent;

/** A nested agent's event as a caller's `stream()` carries it (see `AgentEvent`). */
export type NestedAgentEvent = HookEventSnapshot & { readonly path: readonly string[] };

/** Whether `event` is a nested agent's event (it has a `path`), not the streamed agent's own. */
export function isNestedEvent(event: AgentEvent): event is NestedAgentEvent {
  return (event as { path?: unknown }).path !== undefined;
}

/** Freezes a shallow copy of `event`: O(1) in the size of the conversation. */
export function snapshotOf(event: HookEvent): HookEventSnapshot {
  return Object.freeze({ ...event }) as HookEventSnapshot;
}
