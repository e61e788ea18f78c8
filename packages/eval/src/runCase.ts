import {
  type AgentBase,
  type EventTap,
  type HookEventType,
  type Msg,
  type TappedEvent,
  userMsg,
} from '@rxagent/core';
import { Observable, type Observer, type Subscriber, type Subscription } from 'rxjs';
import type { EvalCase } from './evalCase.js';
import type { CaseResult } from './evalReport.js';
import { checkedScore, type Score, type ScoreFn } from './scorer.js';
import { RunTrace, TRACE_EVENTS } from './trace/runTrace.js';

/** What one run needs: the agent factory, the scorers by name, and what its trace keeps. */
export interface CaseRunner {
  readonly agent: (testCase: EvalCase) => AgentBase;
  /** The scorers as `[name, score]` pairs, in order (made once for every run). */
  readonly scorers: readonly (readonly [string, ScoreFn])[];
  /** Keep the per-chunk events in the trace (`EvaluateOptions.traceChunks`). */
  readonly traceChunks?: boolean;
}

/**
 * One run of `testCase`: a fresh agent from the factory, its call tapped (`CallOptions.tap`:
 * each event as it happens, no snapshot) for only the events the trace keeps (every hook
 * event but the per-chunk ones, unless `traceChunks`), recorded with their times, then every
 * scorer in order. Cold; emits one `CaseResult` and
 * completes. A failed call is a result with `error` and every score 0; a scorer that throws
 * or returns no valid score scores 0 with the failure as its reason. Unsubscribing cancels
 * the agent's call (or drops the result of a scorer still running). `onResult` sees the
 * result just before it is emitted.
 */
export function runCase(
  testCase: EvalCase,
  trial: number,
  runner: CaseRunner,
  onResult?: (result: CaseResult) => void,
): Observable<CaseResult> {
  return new Observable<CaseResult>((subscriber) =>
    new CaseRun(testCase, trial, runner, subscriber, onResult).start(),
  );
}

/**
 * One subscription of `runCase`: the tap of the agent's call, the observer of its reply and
 * the teardown of the run in one object (one allocation per run, where closures would be
 * several).
 */
class CaseRun implements Observer<Msg>, EventTap {
  /** The event types the trace keeps (the tap's `events`): all of them with `traceChunks`. */
  readonly events: readonly HookEventType[] | undefined;
  readonly #testCase: EvalCase;
  readonly #trial: number;
  readonly #runner: CaseRunner;
  readonly #subscriber: Subscriber<CaseResult>;
  readonly #onResult: ((result: CaseResult) => void) | undefined;
  readonly #started = performance.now();
  readonly #trace: RunTrace;
  #call: Subscription | undefined = undefined;
  #reply: Msg | undefined = undefined;
  #done = false;
  #latencyMs = 0;

  constructor(
    testCase: EvalCase,
    trial: number,
    runner: CaseRunner,
    subscriber: Subscriber<CaseResult>,
    onResult: ((result: CaseResult) => void) | undefined,
  ) {
    this.#testCase = testCase;
    this.#trial = trial;
    this.#runner = runner;
    this.#subscriber = subscriber;
    this.#onResult = onResult;
    this.#trace = new RunTrace(this.#started);
    this.events = runner.traceChunks === true ? undefined : TRACE_EVENTS;
  }

  /** Starts the agent's call; returns the run as its own teardown. */
  start(): { unsubscribe(): void } {
    try {
      const agent = this.#runner.agent(this.#testCase);
      const call = agent.call(inputOf(this.#testCase.input), { tap: this }).subscribe(this);
      if (!this.#done) this.#call = call;
    } catch (error) {
      this.#end(undefined, errorText(error));
    }
    return this;
  }

  /** The tap: records each event as it happens (the entry takes what it keeps at once). */
  onEvent(event: TappedEvent): void {
    this.#trace.record(event);
  }

  /** The call's reply: the trace's last entry, as `stream()`'s `reply` event would be. */
  next(reply: Msg): void {
    this.#trace.record({ type: 'reply', msg: reply });
    this.#reply = reply;
  }

  error(error: unknown): void {
    this.#end(undefined, errorText(error));
  }

  complete(): void {
    const reply = this.#reply;
    if (reply !== undefined) this.#end(reply, '');
    else this.#end(undefined, 'the agent gave no reply');
  }

  /** The teardown: cancels the agent's call while it runs. */
  unsubscribe(): void {
    if (!this.#done) this.#call?.unsubscribe();
  }

  /** The call ended with `reply`, or failed with `error`: score, then emit the result. */
  #end(reply: Msg | undefined, error: string): void {
    this.#done = true;
    this.#call = undefined;
    this.#latencyMs = performance.now() - this.#started;
    const scorers = this.#runner.scorers;
    const scores: Record<string, Score> = {};
    if (reply === undefined) {
      for (const [name] of scorers) scores[name] = { score: 0, reason: `the run failed: ${error}` };
      this.#emit(scores, undefined, error);
    } else this.#score(scores, reply, 0);
  }

  /**
   * Runs the scorers from `from` on, in order, into `scores`, then emits. Synchronous scorers
   * run one after another with no Promise; the first Promise a scorer returns is awaited,
   * then the rest go on the same way.
   */
  #score(scores: Record<string, Score>, reply: Msg, from: number): void {
    const scorers = this.#runner.scorers;
    const entries = this.#trace.entries;
    for (let i = from; i < scorers.length; i++) {
      const [name, score] = scorers[i]!;
      let value: unknown;
      try {
        value = score(this.#testCase, reply, entries);
      } catch (error) {
        scores[name] = failed(error);
        continue;
      }
      if (isThenable(value)) {
        Promise.resolve(value).then(
          (resolved) => {
            scores[name] = checked(name, resolved);
            this.#score(scores, reply, i + 1);
          },
          (error: unknown) => {
            scores[name] = failed(error);
            this.#score(scores, reply, i + 1);
          },
        );
        return;
      }
      scores[name] = checked(name, value);
    }
    this.#emit(scores, reply, '');
  }

  #emit(scores: Record<string, Score>, reply: Msg | undefined, error: string): void {
    const subscriber = this.#subscriber;
    if (subscriber.closed) return;
    const value = result(
      this.#testCase,
      this.#trial,
      scores,
      reply,
      error,
      this.#trace,
      this.#latencyMs,
    );
    this.#onResult?.(value);
    subscriber.next(value);
    subscriber.complete();
  }
}

function inputOf(input: EvalCase['input']): Msg | Msg[] {
  if (typeof input === 'string') return userMsg(input);
  return Array.isArray(input) ? [...(input as readonly Msg[])] : (input as Msg);
}

function failed(error: unknown): Score {
  return { score: 0, reason: `scorer failed: ${errorText(error)}` };
}

function checked(name: string, value: unknown): Score {
  try {
    return checkedScore(name, value);
  } catch (error) {
    return failed(error);
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}

/** The run's result: `reply` when the call gave one, else `error`. */
function result(
  testCase: EvalCase,
  trial: number,
  scores: Record<string, Score>,
  reply: Msg | undefined,
  error: string,
  trace: RunTrace,
  latencyMs: number,
): CaseResult {
  let passed = reply !== undefined;
  if (passed) for (const name in scores) if (scores[name]!.score !== 1) passed = false;
  const usage = trace.usage();
  const entries = trace.entries;
  // One literal per shape (no spread of the optional parts): the fields in the same order.
  const { id, input, expected } = testCase;
  if (reply !== undefined) {
    return expected === undefined
      ? { id, trial, input, scores, passed, reply, usage, latencyMs, trace: entries }
      : { id, trial, input, expected, scores, passed, reply, usage, latencyMs, trace: entries };
  }
  return expected === undefined
    ? { id, trial, input, scores, passed, error, usage, latencyMs, trace: entries }
    : { id, trial, input, expected, scores, passed, error, usage, latencyMs, trace: entries };
}

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
