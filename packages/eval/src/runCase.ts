import { type AgentBase, type AgentEvent, type Msg, userMsg } from '@rxagent/core';
import { Observable, type Subscription } from 'rxjs';
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

type Outcome = { readonly reply: Msg } | { readonly error: string };

/** The stream options of a run whose trace leaves the chunk events out, and of one that keeps them. */
const WITHOUT_CHUNKS = Object.freeze({ events: TRACE_EVENTS });
const WITH_CHUNKS = Object.freeze({});

/**
 * One run of `testCase`: a fresh agent from the factory, its call streamed with only the
 * events the trace keeps (every hook event but the per-chunk ones, unless `traceChunks`),
 * recorded with their times, then every scorer in order. Cold; emits one `CaseResult` and
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
  return new Observable<CaseResult>((subscriber) => {
    const started = performance.now();
    const trace = new RunTrace(started);
    let latencyMs = 0;
    let call: Subscription | undefined;
    let done = false;
    const finish = (outcome: Outcome): void => {
      latencyMs = performance.now() - started;
      scoreAll(testCase, outcome, trace, runner.scorers, (scores) => {
        if (subscriber.closed) return;
        const value = result(testCase, trial, outcome, scores, trace, latencyMs);
        onResult?.(value);
        subscriber.next(value);
        subscriber.complete();
      });
    };
    let reply: Msg | undefined;
    try {
      const agent = runner.agent(testCase);
      const options = runner.traceChunks === true ? WITH_CHUNKS : WITHOUT_CHUNKS;
      call = agent.stream(inputOf(testCase.input), options).subscribe({
        next: (event: AgentEvent) => {
          trace.record(event);
          if (event.type === 'reply') reply = event.msg;
        },
        error: (error: unknown) => {
          done = true;
          finish({ error: errorText(error) });
        },
        complete: () => {
          done = true;
          finish(reply !== undefined ? { reply } : { error: 'the agent gave no reply' });
        },
      });
    } catch (error) {
      done = true;
      finish({ error: errorText(error) });
    }
    return () => {
      if (!done) call?.unsubscribe();
    };
  });
}

function inputOf(input: EvalCase['input']): Msg | Msg[] {
  if (typeof input === 'string') return userMsg(input);
  return Array.isArray(input) ? [...(input as readonly Msg[])] : (input as Msg);
}

/**
 * Runs every scorer in order and hands `done` the scores by name. Synchronous scorers run
 * one after another with no Promise; the first Promise a scorer returns is awaited, then the
 * rest go on the same way.
 */
function scoreAll(
  testCase: EvalCase,
  outcome: Outcome,
  trace: RunTrace,
  scorers: readonly (readonly [string, ScoreFn])[],
  done: (scores: Record<string, Score>) => void,
): void {
  const scores: Record<string, Score> = {};
  if (!('reply' in outcome)) {
    for (const [name] of scorers)
      scores[name] = { score: 0, reason: `the run failed: ${outcome.error}` };
    done(scores);
    return;
  }
  const { reply } = outcome;
  const failed = (error: unknown): Score => ({
    score: 0,
    reason: `scorer failed: ${errorText(error)}`,
  });
  const entries = scorers;
  const next = (from: number): void => {
    for (let i = from; i < entries.length; i++) {
      const [name, score] = entries[i]!;
      let value: unknown;
      try {
        value = score(testCase, reply, trace.entries);
      } catch (error) {
        scores[name] = failed(error);
        continue;
      }
      if (isThenable(value)) {
        Promise.resolve(value).then(
          (resolved) => {
            scores[name] = checked(name, resolved, failed);
            next(i + 1);
          },
          (error: unknown) => {
            scores[name] = failed(error);
            next(i + 1);
          },
        );
        return;
      }
      scores[name] = checked(name, value, failed);
    }
    done(scores);
  };
  next(0);
}

function checked(name: string, value: unknown, failed: (error: unknown) => Score): Score {
  try {
    return checkedScore(name, value);
  } catch (error) {
    return failed(error);
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}

function result(
  testCase: EvalCase,
  trial: number,
  outcome: Outcome,
  scores: Record<string, Score>,
  trace: RunTrace,
  latencyMs: number,
): CaseResult {
  const reply = 'reply' in outcome ? outcome.reply : undefined;
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
  const error = (outcome as { readonly error: string }).error;
  return expected === undefined
    ? { id, trial, input, scores, passed, error, usage, latencyMs, trace: entries }
    : { id, trial, input, expected, scores, passed, error, usage, latencyMs, trace: entries };
}

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
