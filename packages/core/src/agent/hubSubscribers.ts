import { catchError, concatMap, endWith, from, ignoreElements, type Observable, of } from 'rxjs';
import { ObserveError } from '../errors.js';
import type { ErrorEvent } from '../hooks/hookEvent.js';
import type { Msg } from '../message/msg.js';
import type { Agent } from './agent.js';

/**
 * The hub subscribers of one agent: for each hub it is in, the other participants that
 * observe its replies. Created on the first hub (most agents never join one).
 */
export class HubSubscribers {
  readonly #byHub = new Map<string, readonly Agent[]>();

  /** Makes `agents` (minus `self`) the subscribers for hub `hubId`. */
  reset(hubId: string, self: Agent, agents: readonly Agent[]): void {
    this.#byHub.set(
      hubId,
      agents.filter((agent) => agent !== self),
    );
  }

  /** Drops the subscribers of hub `hubId`. */
  remove(hubId: string): void {
    this.#byHub.delete(hubId);
  }

  /**
   * Has every subscriber (each once, whatever hubs it shares) observe `reply`, one after
   * another, then emits `reply`. Cold. A subscriber whose `observe` fails is reported as an
   * `ObserveError` naming it through `report` (the speaker's error hooks) and delivery goes
   * on to the ones after it: one broken subscriber neither starves the others nor fails a
   * call whose reply is made.
   */
  broadcast(
    reply: Msg,
    speaker: Agent,
    report: (event: ErrorEvent) => Observable<unknown>,
  ): Observable<Msg> {
    const onFailure = (agent: Agent, cause: unknown): Observable<unknown> =>
      report({
        type: 'error',
        agent: speaker,
        error: new ObserveError(agent.name, speaker.name, { cause }),
      });
    const targets = new Set<Agent>();
    for (const agents of this.#byHub.values()) for (const agent of agents) targets.add(agent);
    // Most replies have no subscriber: of(reply) is one subscription, EMPTY.pipe(endWith()) five.
    if (targets.size === 0) return of(reply);
    return from(targets).pipe(
      concatMap((agent) =>
        agent.observe(reply).pipe(catchError((cause: unknown) => onFailure(agent, cause))),
      ),
      ignoreElements(),
      endWith(reply),
    );
  }
}
