import { randomUUID } from 'node:crypto';
import {
  catchError,
  concat,
  concatMap,
  defer,
  EMPTY,
  endWith,
  finalize,
  from,
  ignoreElements,
  type Observable,
  type ObservableInput,
  tap,
  throwError,
} from 'rxjs';
import { AgentBase } from '../agent/agentBase.js';
import { InvalidArgumentError } from '../errors.js';
import { normalizeInput } from '../internal/normalizeInput.js';
import type { Msg } from '../message/msg.js';
import { checkOptions } from '../options/checkOptions.js';

/** Options of `new MsgHub()` and `msgHub()`. */
export interface MsgHubOptions {
  /** The agents of the hub, in broadcast order. */
  readonly participants: readonly AgentBase[];
  /** Observed by every participant when the hub is entered. */
  readonly announcement?: Msg | readonly Msg[];
  /** Whether each participant's replies are observed by all the others (default `true`). */
  readonly autoBroadcast?: boolean;
  /** A label for logs and errors (default `"msghub"`). */
  readonly name?: string;
}

/**
 * A group of agents that hear each other. Once entered, with auto-broadcast on, every reply
 * of a participant is observed by every other participant (never by itself) before its
 * caller receives it. A participant whose `observe` fails on a reply does not stop the
 * others from receiving it and does not fail the speaker's call: the failure reaches the
 * speaker's `error` hooks as an `ObserveError` naming that participant. `exit()` undoes the subscriptions; prefer `msgHub()`, which always exits.
 */
export class MsgHub {
  /** The id under which participants register their subscribers. */
  readonly id: string = randomUUID();
  readonly name: string;
  readonly #announcement: Msg | readonly Msg[] | undefined;
  #participants: AgentBase[] = [];
  #autoBroadcast: boolean;
  #entered = false;

  constructor(options: MsgHubOptions) {
    if (typeof options !== 'object' || options === null) {
      throw new InvalidArgumentError(
        'new MsgHub(options): options must be an object with participants.',
      );
    }
    checkOptions(options, ['participants', 'announcement', 'autoBroadcast', 'name'], 'MsgHub');
    this.name = options.name ?? 'msghub';
    this.#announcement = options.announcement;
    this.#autoBroadcast = options.autoBroadcast ?? true;
    this.#participants = uniqueAgents(options.participants, `MsgHub "${this.name}"`);
  }

  /** The participants, in broadcast order (a copy). */
  get participants(): readonly AgentBase[] {
    return [...this.#participants];
  }

  /** Whether replies are currently broadcast to the other participants. */
  get autoBroadcast(): boolean {
    return this.#autoBroadcast;
  }

  /**
   * Enters the hub. Cold: on subscription it subscribes the participants to each other (when
   * auto-broadcast is on), has every participant observe the announcement, emits one
   * `undefined` and completes. Errors when a participant's `observe` fails. Unsubscribing
   * stops the announcement; the hub stays entered until `exit()`.
   */
  enter(): Observable<void> {
    return defer(() => {
      this.#entered = true;
      this.#resetSubscribers();
      return this.#announcement === undefined ? EMPTY : this.broadcast(this.#announcement);
    }).pipe(ignoreElements(), endWith(undefined));
  }

  /** Adds agents (already present ones are ignored); subscriptions are updated at once when entered. */
  add(agents: AgentBase | readonly AgentBase[]): void {
    for (const agent of uniqueAgents(toArray(agents), `MsgHub "${this.name}".add()`)) {
      if (!this.#participants.includes(agent)) this.#participants.push(agent);
    }
    this.#resetSubscribers();
  }

  /** Removes agents and clears their own subscriptions for this hub; absent agents are ignored. */
  delete(agents: AgentBase | readonly AgentBase[]): void {
    const removed = uniqueAgents(toArray(agents), `MsgHub "${this.name}".delete()`);
    this.#participants = this.#participants.filter((agent) => !removed.includes(agent));
    for (const agent of removed) agent.removeSubscribers(this.id);
    this.#resetSubscribers();
  }

  /**
   * Has every participant observe `msg`, one after another in participant order. Cold; emits
   * one `undefined` when all have observed it, then completes; errors with
   * `InvalidArgumentError` for a non-Msg. A participant whose `observe` fails does not stop
   * delivery: every other participant still observes `msg`, then the broadcast errors with
   * the first failure.
   */
  broadcast(msg: Msg | readonly Msg[]): Observable<void> {
    return defer(() => {
      const msgs = normalizeInput(msg, `MsgHub "${this.name}".broadcast()`);
      let failure: { readonly error: unknown } | undefined;
      const observeOne = (agent: AgentBase): Observable<void> =>
        agent.observe(msgs).pipe(
          catchError((error: unknown) => {
            failure ??= { error };
            return EMPTY;
          }),
        );
      const observeAll = from([...this.#participants]).pipe(concatMap(observeOne));
      return concat(
        observeAll,
        defer(() => (failure ? throwError(() => failure?.error) : EMPTY)),
      );
    }).pipe(ignoreElements(), endWith(undefined));
  }

  /** Turns auto-broadcast on or off; takes effect at once when the hub is entered. */
  setAutoBroadcast(enabled: boolean): void {
    this.#autoBroadcast = enabled;
    if (enabled) this.#resetSubscribers();
    else for (const agent of this.#participants) agent.removeSubscribers(this.id);
  }

  /** Leaves the hub: no participant broadcasts to it any more. Idempotent. */
  exit(): void {
    this.#entered = false;
    for (const agent of this.#participants) agent.removeSubscribers(this.id);
  }

  #resetSubscribers(): void {
    if (!this.#entered || !this.#autoBroadcast) return;
    for (const agent of this.#participants) agent.resetSubscribers(this.id, this.#participants);
  }
}

/**
 * Enters a hub of `options.participants`, runs `body(hub)` and always exits: on completion
 * and error (before the caller is notified) and on unsubscribe. Cold; emits what `body`
 * emits (its values arrive while the hub is still entered) and completes with it; errors with
 * the body's error, a participant's `observe` error or `InvalidArgumentError` for bad options.
 *
 * @example
 * ```ts
 * const reply = await lastValueFrom(
 *   msgHub({ participants: [alice, bob, carol], announcement: userMsg('Introduce yourselves.') },
 *     () => sequentialPipeline([alice, bob, carol])),
 * ); // each introduction was heard by the two others
 * ```
 */
export function msgHub<T>(
  options: MsgHubOptions,
  body: (hub: MsgHub) => ObservableInput<T>,
): Observable<T> {
  return defer(() => {
    const hub = new MsgHub(options);
    const exit = (): void => hub.exit();
    return hub.enter().pipe(
      concatMap(() => body(hub)),
      tap({ complete: exit, error: exit }),
      finalize(exit),
    );
  });
}

function toArray(agents: AgentBase | readonly AgentBase[]): readonly AgentBase[] {
  return agents instanceof AgentBase ? [agents] : agents;
}

function uniqueAgents(agents: unknown, where: string): AgentBase[] {
  if (!Array.isArray(agents))
    throw new InvalidArgumentError(`${where}: expected an array of agents.`);
  agents.forEach((agent, index) => {
    if (!(agent instanceof AgentBase)) {
      throw new InvalidArgumentError(
        `${where}: item ${index} is not an agent (an AgentBase instance).`,
      );
    }
  });
  return [...new Set(agents as AgentBase[])];
}
