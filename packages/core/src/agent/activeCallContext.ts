import { type Observable, of, type Subscription, tap } from 'rxjs';
import type { DurableRun } from '../durable/durableRun.js';
import type { Hook } from '../hooks/hook.js';
import type { HookEvent, HookEventType } from '../hooks/hookEvent.js';
import { dispatchHooks, runHooks } from '../hooks/runHooks.js';
import { newId } from '../internal/newId.js';
import type { JsonObject } from '../json.js';
import type { Msg } from '../message/msg.js';
import type { Usage } from '../model/chatModel.js';
import { addUsage } from '../model/chatResponse.js';
import { type UsageByAgent, usageByAgent } from '../model/usageByAgent.js';
import type { Agent } from './agent.js';
import { type AgentEvent, snapshotOf } from './agentEvent.js';
import type { CallContext } from './callContext.js';
import type { CallOptions } from './callOptions.js';
import { type TapCallOptions, type TappedEvent, type TapTarget, tapTarget } from './eventTap.js';
import { Steering } from './steering.js';

/** The hooks of an agent that want events of `type`, in dispatch order. */
export type HooksFor = (type: HookEventType) => readonly Hook[];

/**
 * The `CallContext` handed to `doCall`: a small class rather than an object literal with
 * getters, which V8 keeps in dictionary mode with a closure per accessor for every call.
 */
export class ActiveCallContext implements CallContext {
  /** Who is asking (`options.callContext`), set on every hook event of the call. */
  readonly callContext: JsonObject | undefined;
  systemPrompt: string;
  #usage: Usage | undefined;
  #own: Usage | undefined; // this agent's own requests
  #others: Record<string, Usage> | undefined; // other agents' usage, by name
  #steering: Steering | undefined; // made by the first steer()
  #steerListeners: readonly (() => void)[] | undefined; // made by the first onSteer()
  readonly #hooksFor: HooksFor;
  #sink: ((event: AgentEvent) => void) | undefined;
  /** The event types `#sink` wants (`stream({ events })`); every type when undefined. */
  #sinkTypes: ReadonlySet<string> | undefined;
  /** `options.tap`: gets the live events (no snapshot) until the call ends (`releaseTap`). */
  #tap: TapTarget | undefined;
  #forward: ((event: AgentEvent) => void) | undefined; // `forwardEvent` of a tapped call
  /** The durable side of the call, when the agent is durable. */
  durableRun: DurableRun | undefined;
  #callId: string | undefined; // made on first read: most calls never read it

  constructor(
    readonly agent: Agent,
    readonly signal: AbortSignal,
    readonly options: CallOptions,
    systemPrompt: string,
    hooksFor: HooksFor,
    sink: ((event: AgentEvent) => void) | undefined,
    sinkTypes?: ReadonlySet<string>,
  ) {
    this.systemPrompt = systemPrompt;
    this.callContext = options.callContext;
    this.#hooksFor = hooksFor;
    const { tap: given } = options as TapCallOptions;
    if (given !== undefined) this.#tap = tapTarget(given);
    this.#sinkTypes = sink === undefined ? undefined : sinkTypes;
    // Filtered at the sink too, for the events that reach it directly (nested agents' events
    // through `forwardEvent`, the error event); `dispatch` skips unwanted ones before snapshotting.
    this.#sink =
      sink === undefined || sinkTypes === undefined
        ? sink
        : (event) => {
            if (sinkTypes.has(event.type)) sink(event);
          };
  }

  /** The sink, when it wants events of `type`. */
  #sinkFor(type: string): ((event: AgentEvent) => void) | undefined {
    const types = this.#sinkTypes;
    return types === undefined || types.has(type) ? this.#sink : undefined;
  }

  /** The tap, when it wants events of `type`. */
  #tapFor(type: string): TapTarget['tap'] | undefined {
    const target = this.#tap;
    return target === undefined || (target.types !== undefined && !target.types.has(type))
      ? undefined
      : target.tap;
  }

  /** Whether the call has a tap (`options.tap`) still attached. */
  get tapped(): boolean {
    return this.#tap !== undefined;
  }

  /** Detaches the tap: the call has ended or its caller left; nothing more reaches it. */
  releaseTap(): void {
    this.#tap = undefined;
  }

  /**
   * Gives the `error` event to the tap and the sink (its snapshot) as the call fails; a throw
   * in the tap cannot replace the error the call fails with, so it is dropped.
   */
  recordError(event: HookEvent): void {
    const tapped = this.#tapFor(event.type);
    if (tapped !== undefined) {
      try {
        tapped.onEvent(event as TappedEvent);
      } catch {
        // see above: the call's own error stands
      }
    }
    this.#sink?.(snapshotOf(event));
  }

  /** The id of this call, made on first read (most calls never read it), then the same. */
  get callId(): string {
    this.#callId ??= newId();
    return this.#callId;
  }

  /**
   * What `notify` does, without an Observable when every hook is synchronous: `done` gets
   * the event as the hooks left it (after its snapshot went to `stream()`), `fail` a hook's
   * error; an asynchronous hook's subscription goes into `live`.
   */
  dispatch<E extends HookEvent>(
    event: E,
    done: (event: E) => void,
    fail: (error: unknown) => void,
    live: Subscription,
  ): void {
    const sink = this.#sinkFor(event.type);
    const tapped = this.#tapFor(event.type);
    const hooks = this.#hooksFor(event.type);
    if (this.callContext !== undefined) withCallContext(event, this.callContext);
    if (sink === undefined && tapped === undefined) dispatchHooks(hooks, event, done, fail, live);
    else if (hooks.length === 0) {
      // Only watchers (an eval run's tap, say): no hook chain, no closure per event.
      try {
        tapped?.onEvent(event as unknown as TappedEvent);
        if (sink !== undefined) sink(snapshotOf(event));
        done(event);
      } catch (error) {
        fail(error);
      }
    } else {
      // A throw in the tap reaches `fail` (dispatchHooks catches `done`'s): it fails the call.
      const record = (final: E): void => {
        tapped?.onEvent(final as unknown as TappedEvent);
        sink?.(snapshotOf(final));
        done(final);
      };
      dispatchHooks(hooks, event, record, fail, live);
    }
  }

  notify<E extends HookEvent>(event: E): Observable<E> {
    if (this.callContext !== undefined) withCallContext(event, this.callContext);
    const run = runHooks(this.#hooksFor(event.type), event);
    const sink = this.#sinkFor(event.type);
    const tapped = this.#tapFor(event.type);
    if (sink === undefined && tapped === undefined) return run;
    return run.pipe(
      tap((final) => {
        tapped?.onEvent(final as unknown as TappedEvent);
        sink?.(snapshotOf(final));
      }),
    );
  }

  /**
   * Where a tool that runs an agent sends that agent's events (with their path): the call's
   * sink, while its events go anywhere (`stream()`, or a follower tapped on later).
   */
  get forwardEvent(): ((event: AgentEvent) => void) | undefined {
    if (this.#tap === undefined) return this.#sink;
    // Made on first read: only a call that runs an agent as a tool needs it.
    this.#forward ??= (event) => {
      if (event.type !== 'reply') this.#tapFor(event.type)?.onEvent(event);
      this.#sink?.(event);
    };
    return this.#forward;
  }

  /** Where the call's event snapshots go (`stream()`, or a sink tapped on later), if anywhere. */
  get sink(): ((event: AgentEvent) => void) | undefined {
    return this.#sink;
  }

  /**
   * Sends the snapshot of every event from now on to `sink` as well (an AgentHost follower
   * that attached to a call started without `stream()`). Events whose building a step
   * already skipped (nothing listened when it began) are not made up afterwards.
   */
  tap(sink: (event: AgentEvent) => void): void {
    const before = this.#sink;
    this.#sinkTypes = undefined; // the tapped sink wants every event (`before` filters its own)
    this.#sink =
      before === undefined
        ? sink
        : (event) => {
            before(event);
            sink(event);
          };
  }

  listens(type: HookEventType): boolean {
    return (
      this.#sinkFor(type) !== undefined ||
      this.#tapFor(type) !== undefined ||
      this.#hooksFor(type).length > 0
    );
  }

  /** An arrow function, so a detached `addUsage` (destructured from the context) still works. */
  readonly addUsage = (usage: Usage | undefined, agentName?: string): void => {
    this.#usage = addUsage(this.#usage, usage);
    if (agentName === undefined || usage === undefined) {
      this.#own = addUsage(this.#own, usage);
      return;
    }
    this.#others ??= {};
    this.#others[agentName] = addUsage(this.#others[agentName], usage)!;
  };

  get usage(): Usage | undefined {
    return this.#usage;
  }

  get usageByAgent(): UsageByAgent | undefined {
    return usageByAgent(this.agent.name, this.#own, this.#others);
  }

  /** Adds messages `steer()` gave this call, for its next model request. */
  steer(msgs: readonly Msg[]): void {
    this.#steering ??= new Steering();
    this.#steering.add(msgs);
    if (this.#steerListeners) for (const listener of this.#steerListeners) listener();
  }

  /** Calls `listener` after each `steer()` of this call; returns what removes it. */
  onSteer(listener: () => void): () => void {
    this.#steerListeners = [...(this.#steerListeners ?? []), listener];
    return () => {
      this.#steerListeners = this.#steerListeners?.filter((l) => l !== listener);
    };
  }

  takeSteered(): Msg[] {
    return this.#steering?.take() ?? [];
  }

  /** The steered messages the call never took, each handed out once. */
  takeLeftSteered(): Msg[] {
    return this.#steering?.takeLeft() ?? [];
  }

  /** The ids of the steered messages the call took, or `undefined` when none was. */
  get steeredIds(): readonly string[] | undefined {
    return this.#steering?.takenIds;
  }

  get durable(): boolean {
    return this.durableRun !== undefined;
  }

  get recovered(): JsonObject | undefined {
    return this.durableRun?.recovered;
  }

  checkpoint(progress?: JsonObject): Observable<void> {
    return this.durableRun?.checkpoint(progress) ?? of(undefined);
  }
}

/** Sets `event.callContext` (who is asking) on an event of a call that has one. */
export function withCallContext(event: HookEvent, callContext: JsonObject): void {
  (event as { callContext?: JsonObject }).callContext = callContext;
}
