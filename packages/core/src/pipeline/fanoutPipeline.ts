import { catchError, defer, from, map, mergeMap, type Observable, of, toArray } from 'rxjs';
import type { AgentBase } from '../agent/agentBase.js';
import { InvalidArgumentError, PipelineError } from '../errors.js';
import type { Msg } from '../message/msg.js';
import { checkOptions } from '../options/checkOptions.js';
import { checkAgents } from './checkAgents.js';

/** Options of `fanoutPipeline`. */
export interface FanoutOptions {
  /** Call the agents at the same time (default `true`); `false` calls them one at a time. */
  readonly concurrent?: boolean;
  /** At most this many calls in flight when concurrent (default: all of them). */
  readonly concurrency?: number;
}

type Outcome =
  | { readonly index: number; readonly reply: Msg }
  | { readonly index: number; readonly agentName: string; readonly error: unknown };

/**
 * Calls every agent with the same `input` and emits their replies as one `Msg[]` in agent
 * order (not completion order), then completes. Cold. Concurrent by default, bounded by
 * `concurrency`; with `concurrent: false` the agents run one at a time in order. Every agent
 * is called even when some fail: the pipeline waits for all, then errors with a
 * `PipelineError` (an `AggregateError`) listing each failure by agent name, in agent order.
 * Errors with `InvalidArgumentError` for bad arguments, including an agent listed twice in a
 * concurrent fan-out (one agent cannot run two calls at once). An empty `agents` emits `[]`.
 * Unsubscribing cancels every call in flight.
 *
 * @example
 * ```ts
 * const replies = await lastValueFrom(fanoutPipeline([optimist, pessimist], userMsg(question)));
 * for (const reply of replies) console.log(`${reply.name}: ${textOf(reply)}`); // optimist first
 * ```
 */
export function fanoutPipeline(
  agents: readonly AgentBase[],
  input?: Msg | readonly Msg[],
  options: FanoutOptions = {},
): Observable<Msg[]> {
  return defer(() => {
    checkOptions(options, ['concurrent', 'concurrency'], 'fanoutPipeline()');
    const list = checkAgents(agents, 'fanoutPipeline()', { allowEmpty: true });
    const limit = concurrencyOf(options);
    if (limit > 1) assertDistinct(list);
    return from(list.map((agent, index) => ({ agent, index }))).pipe(
      mergeMap(({ agent, index }) => callOnce(agent, index, input), limit),
      toArray(),
      map((outcomes) => collect(outcomes, list.length)),
    );
  });
}

function callOnce(
  agent: AgentBase,
  index: number,
  input: Msg | readonly Msg[] | undefined,
): Observable<Outcome> {
  return agent.call(input).pipe(
    map((reply): Outcome => ({ index, reply })),
    catchError((error: unknown) => of<Outcome>({ index, agentName: agent.name, error })),
  );
}

function collect(outcomes: readonly Outcome[], count: number): Msg[] {
  const ordered = new Array<Outcome>(count);
  for (const outcome of outcomes) ordered[outcome.index] = outcome;
  const failures = ordered.filter((outcome) => 'error' in outcome);
  if (failures.length > 0) {
    throw new PipelineError(failures.map(({ agentName, error }) => ({ agentName, error })));
  }
  return ordered.map((outcome) => (outcome as { reply: Msg }).reply);
}

function concurrencyOf(options: FanoutOptions): number {
  if (options.concurrent === false) return 1;
  const limit = options.concurrency ?? Number.POSITIVE_INFINITY;
  if (limit !== Number.POSITIVE_INFINITY && !(Number.isInteger(limit) && limit >= 1)) {
    throw new InvalidArgumentError(
      `fanoutPipeline(): options.concurrency must be a positive integer (got ${String(limit)}).`,
    );
  }
  return limit;
}

function assertDistinct(agents: readonly AgentBase[]): void {
  const seen = new Set<AgentBase>();
  for (const agent of agents) {
    if (seen.has(agent)) {
      throw new InvalidArgumentError(
        `fanoutPipeline(): agent "${agent.name}" is listed twice, and one agent cannot run two calls at once; list it once or pass { concurrent: false }.`,
      );
    }
    seen.add(agent);
  }
}
