import type { Msg, Usage } from '@rxagent/core';
import type { EvalCase } from './evalCase.js';
import type { Score } from './scorer.js';
import type { TraceEntry } from './trace/traceEntry.js';

/** One run of one case (one trial): its scores, reply, cost, time and trace. */
export interface CaseResult {
  readonly id: string;
  /** 0-based trial number (`trials` runs each case that many times). */
  readonly trial: number;
  readonly input: EvalCase['input'];
  readonly expected?: EvalCase['expected'];
  /** Each scorer's score, by scorer name (all 0 when the run failed). */
  readonly scores: Readonly<Record<string, Score>>;
  /** Whether every scorer scored 1. */
  readonly passed: boolean;
  /** The agent's reply; absent when the call failed. */
  readonly reply?: Msg;
  /** Why the call (or a scorer) failed, when it did. */
  readonly error?: string;
  /** Tokens of the agent's model requests in this run. */
  readonly usage: Usage;
  /** Milliseconds from calling the agent to its reply (scoring excluded). */
  readonly latencyMs: number;
  /**
   * The run's events, timed (for `traceHtml`): every hook event of the call and of agents it
   * called as tools, then the reply; the per-chunk events only with `traceChunks`. The
   * entries share the run's messages, tool calls and results (not copies).
   */
  readonly trace: readonly TraceEntry[];
}

/** How one scorer did over every run. */
export interface ScorerSummary {
  /** The mean score. */
  readonly mean: number;
  /** The share of runs it scored 1. */
  readonly passRate: number;
}

/** What `evaluate` resolves with. */
export interface EvalReport {
  readonly version: 1;
  readonly name: string;
  /** ISO time the evaluation started. */
  readonly startedAt: string;
  readonly durationMs: number;
  readonly cases: readonly CaseResult[];
  readonly scorers: Readonly<Record<string, ScorerSummary>>;
  /** Latency percentiles over every run, in milliseconds (linear interpolation). */
  readonly latency: {
    readonly p50: number;
    readonly p95: number;
    readonly mean: number;
    readonly max: number;
  };
  /** Tokens summed over every run. */
  readonly tokens: Usage;
  /** The mean of every scorer's mean: the number `--threshold` is checked against. */
  readonly score: number;
  /** The share of runs that passed every scorer. */
  readonly passRate: number;
  /** Runs whose agent call failed. */
  readonly errors: number;
}
