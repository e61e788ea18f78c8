import type { Observable } from 'rxjs';
import type { HookEvent, HookEventType } from './hookEvent.js';

/**
 * What a hook returns: nothing (it may have changed the event in place), a replacement event
 * of the same type, or either of those later through a Promise or an Observable (its last
 * value counts). A synchronous hook adds no asynchronous hop.
 */
export type HookResult =
  | void
  | HookEvent
  // biome-ignore lint/suspicious/noConfusingVoidType: an async hook may resolve to nothing.
  | Promise<void | HookEvent>
  // biome-ignore lint/suspicious/noConfusingVoidType: an Observable hook may emit nothing.
  | Observable<void | HookEvent>;

/**
 * Observes and may change what flows through an agent. Hooks run one at a time in ascending
 * `priority` (default 100), ties in registration order; each sees the event as the previous
 * hook left it. A hook that throws or errors fails the call with that error.
 *
 * `events` names the event types the hook wants; without it the hook receives every event.
 * Naming them is worth it for a hook that ignores the per-chunk events (`reasoningChunk`,
 * `actingChunk`): when no hook and no `stream()` wants chunk events, the agent does not
 * build them at all.
 *
 * @example
 * ```ts
 * const shout: Hook = {
 *   name: 'shout',
 *   events: ['postCall'],
 *   onEvent(event) {
 *     if (event.type === 'postCall') event.reply = assistantMsg(textOf(event.reply).toUpperCase());
 *   },
 * };
 * ```
 */
export interface Hook {
  readonly name?: string;
  readonly priority?: number;
  /** The event types this hook receives; all of them when omitted. */
  readonly events?: readonly HookEventType[];
  onEvent(event: HookEvent): HookResult;
}

/** The priority a hook gets when it names none. */
export const DEFAULT_HOOK_PRIORITY = 100;
