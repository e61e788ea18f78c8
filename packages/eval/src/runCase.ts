import { type AgentBase, type AgentEvent, type Msg, type Usage, userMsg } from '@rxagent/core';
import { catchError, concatMap, defer, from, map, type Observable, of, tap, toArray } from 'rxjs';
import type { EvalCase } from './evalCase.js';
import type { CaseResult } from './evalReport.js';
import { checkedScore, type Score, type ScoreFn } from './scorer.js';
import { type TraceEntry, toTraceEntry } from './trace/traceEntry.js';

/** What one run needs: the agent factory and the scorers by name. */
export interface CaseRunner {
  readonly agent: (testCase: EvalCase) => AgentBase;
  readonly scorers: ReadonlyMap<string, ScoreFn>;
}

type Outcome = { readonly reply: Msg } | { readonly error: string };

/**
 * One run of `testCase`: a fresh agent from the factory, its `stream()` recorded as a timed
 * trace, then every scorer in order. Cold; emits one `CaseResult` and completes. A failed
 * call is a result with `error` and every score 0; a scorer that throws or returns no valid
 * score scores 0 with the failure as its reason. Unsubscribing cancels the agent's call.
 */
export function runCase(
  testCase: EvalCase,
  trial: number,
  runner: CaseRunner,
): Observable<CaseResult> {
  return defer(() => {
    const trace: TraceEntry[] = [];
    const started = performance.now();
    let latencyMs = 0;
    let agentName: string | undefined;
    return defer(() => runner.agent(testCase).stream(inputOf(testCase.input))).pipe(
      tap((event: AgentEvent) => {
        // The final reply event names no agent: it belongs to the lane of the call's agent.
        const entry = toTraceEntry(
          event,
          performance.now() - started,
          'agent' in event ? undefined : agentName,
        );
        agentName = entry.agent;
        trace.push(entry);
      }),
      toArray(),
      map((events): Outcome => {
        latencyMs = performance.now() - started;
        const last = events.at(-1);
        return last?.type === 'reply' ? { reply: last.msg } : { error: 'the agent gave no reply' };
      }),
      catchError((error: unknown) => {
        latencyMs = performance.now() - started;
        return of<Outcome>({ error: errorText(error) });
      }),
      concatMap((outcome) =>
        scoreAll(testCase, outcome, trace, runner.scorers).pipe(
          map((scores) => result(testCase, trial, outcome, scores, trace, latencyMs)),
        ),
      ),
    );
  });
}

function inputOf(input: EvalCase['input']): Msg | Msg[] {
  if (typeof input === 'string') return userMsg(input);
  return Array.isArray(input) ? [...(input as readonly Msg[])] : (input as Msg);
}

function scoreAll(
  testCase: EvalCase,
  outcome: Outcome,
  trace: readonly TraceEntry[],
  scorers: ReadonlyMap<string, ScoreFn>,
): Observable<Record<string, Score>> {
  if (!('reply' in outcome)) {
    const scores: Record<string, Score> = {};
    for (const name of scorers.keys())
      scores[name] = { score: 0, reason: `the run failed: ${outcome.error}` };
    return of(scores);
  }
  return from([...scorers]).pipe(
    concatMap(([name, score]) =>
      defer(async () => checkedScore(name, await score(testCase, outcome.reply, trace))).pipe(
        catchError((error: unknown) =>
          of<Score>({ score: 0, reason: `scorer failed: ${errorText(error)}` }),
        ),
        map((value) => [name, value] as const),
      ),
    ),
    toArray(),
    map((pairs) => Object.fromEntries(pairs)),
  );
}

function result(
  testCase: EvalCase,
  trial: number,
  outcome: Outcome,
  scores: Record<string, Score>,
  trace: readonly TraceEntry[],
  latencyMs: number,
): CaseResult {
  const passed = 'reply' in outcome && Object.values(scores).every((score) => score.score === 1);
  return {
    id: testCase.id,
    trial,
    input: testCase.input,
    ...(testCase.expected !== undefined && { expected: testCase.expected }),
    scores,
    passed,
    ...outcome,
    usage: usageOf(trace),
    latencyMs,
    trace,
  };
}

/** Tokens of the model requests (reasoning and summary) in a trace. */
export function usageOf(trace: readonly TraceEntry[]): Usage {
  const usage: Usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  for (const { event } of trace) {
    if ((event.type === 'postReasoning' || event.type === 'postSummary') && event.usage) {
      usage.inputTokens += event.usage.inputTokens;
      usage.outputTokens += event.usage.outputTokens;
      usage.totalTokens += event.usage.totalTokens;
    }
  }
  return usage;
}

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
