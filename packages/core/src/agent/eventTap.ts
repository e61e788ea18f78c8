import type { HookEventType } from '../hooks/hookEvent.js';
import type { AgentEvent, ReplyEvent } from './agentEvent.js';
import type { CallOptions } from './callOptions.js';
import { streamEventTypes } from './streamEventTypes.js';

/**
 * What a tap receives: a hook event of the call (or, with `path`, of an agent the call ran
 * as a tool), typed read-only. The call's reply is not an event here: it is what `call()`
 * emits.
 */
export type TappedEvent = Exclude<AgentEvent, ReplyEvent>;

/** A tap as a function: called with each event of the call (see `EventTap`). */
export type EventTapFunction = (event: TappedEvent) => void;

/**
 * The cheap way to watch a call's events (`TapCallOptions.tap`): `onEvent` is called with each
 * hook event of the call as it happens — after the agent's hooks ran on it, so it shows what
 * they changed, in the order `stream()` would emit the events — and no snapshot is built.
 *
 * The contract, in exchange for no copy:
 * - the event is **live**: the object the hooks saw. Read it during the call to `onEvent`;
 *   never keep it, never change it. Take the fields you need: the Msgs in it (`input`,
 *   `reply`, `result`, ...) are immutable values and safe to keep, like any other field's
 *   value; copy an array (`input`, `messages`) when you keep it, for the agent may reuse it.
 * - `onEvent` runs synchronously inside the call: keep it short. Called as a method of the
 *   tap (`this` is the tap object).
 * - a throw in `onEvent` fails the call with that error, like a hook that throws (the
 *   `error` hooks run first); a throw on the `error` event itself cannot replace the error
 *   the call already fails with, so it is dropped.
 * - once the call has ended, or its caller unsubscribed or aborted it, the tap gets no more
 *   events and the agent holds no reference to it.
 * - events of agents the call runs as tools (`agent.asTool()`) come too, with `path`, as
 *   `stream()` carries them (those are frozen snapshots).
 */
export interface EventTap {
  /** Called with each event of the call; see `EventTap` for what it may keep. */
  onEvent(event: TappedEvent): void;
  /**
   * The hook event types to receive; every type when omitted. Like `StreamOptions.events`,
   * events of other types are not built for the tap: leaving out `reasoningChunk` and
   * `actingChunk` keeps a call no hook listens to on its chunk-free path. A frozen array is
   * checked once and then reused at no cost. `undefined` is the same as leaving it out.
   */
  readonly events?: readonly HookEventType[] | undefined;
}

/**
 * The options of an `AgentBase`'s `call()`, `reply()`, `queue()` and `stream()`: a call's
 * options and its tap. (Not part of `CallOptions` itself: hook events refer to
 * `CallOptions`, so that module cannot name the events' types.)
 */
export interface TapCallOptions extends CallOptions {
  /**
   * Watches this call's events as they happen, the cheap way: each hook event of the call
   * (after the hooks ran on it, in `stream()`'s order) goes to the tap live, with no
   * snapshot built. A function, or `{ onEvent, events? }` to receive only some types. The
   * event must not be kept or changed (keep its Msgs, they are immutable); a throw fails the
   * call; once the call ends or is cancelled, nothing more reaches it. See `EventTap`.
   */
  readonly tap?: EventTap | EventTapFunction;
}

/** A call's tap as the call uses it: the tap (a function wrapped) and the event types it wants (all when undefined). */
export interface TapTarget {
  readonly tap: { onEvent(event: TappedEvent): void };
  readonly types: ReadonlySet<string> | undefined;
}

/** Throws a TypeError naming what is wrong unless `tap` is an `EventTap` or a function. */
export function checkTap(where: string, tap: unknown): void {
  if (typeof tap === 'function') return;
  if (typeof tap !== 'object' || tap === null || typeof (tap as EventTap).onEvent !== 'function') {
    throw new TypeError(
      `${where}: options.tap must be a function (event) => void or an object { onEvent(event), events? }, not ${describe(tap)}.`,
    );
  }
  for (const key of Object.keys(tap)) {
    if (key !== 'onEvent' && key !== 'events') {
      throw new TypeError(
        `${where}: options.tap has an unknown key "${key}"; a tap has onEvent and events.`,
      );
    }
  }
  const { events } = tap as EventTap;
  if (events !== undefined) streamEventTypes(`${where} (options.tap)`, events);
}

/** The tap and event types of a tap `checkTap` accepted. */
export function tapTarget(tap: EventTap | EventTapFunction): TapTarget {
  if (typeof tap === 'function') return { tap: { onEvent: tap }, types: undefined };
  const { events } = tap;
  return { tap, types: events === undefined ? undefined : streamEventTypes('tap', events) };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object without an onEvent function';
  return `a ${typeof value}`;
}
