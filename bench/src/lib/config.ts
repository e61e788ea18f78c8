/** Sizes of every suite: the full run (under 5 minutes on 2 cores) or a `--quick` smoke run. */
export interface BenchConfig {
  readonly quick: boolean;
  /** Interleaved rounds per comparison. */
  readonly rounds: number;
  /**
   * Discarded rounds before the HTTP suites measure: every contender first runs the same
   * number of conversations, so each is measured in its steady state (JIT-compiled), as a
   * long-running server runs it, not while V8 is still optimising its code.
   */
  readonly httpWarmupRounds: number;
  /**
   * Rounds of the sequential HTTP suite: the budget's ratio is a median of per-round ratios,
   * and HTTP timings on a shared 2-core machine move by ±20 % from one sample to the next.
   */
  readonly httpRounds: number;
  /** Conversations per sample in the sequential HTTP suite. */
  readonly httpRuns: number;
  /** Rounds of the concurrent HTTP suite (its budget is a median of per-round ratios). */
  readonly concurrentRounds: number;
  /** Conversations in flight at once in the concurrent HTTP suite. */
  readonly concurrency: number;
  /** Conversations per sample in the concurrent HTTP suite. */
  readonly concurrentRuns: number;
  /** Conversations in flight at once in the concurrent HTTP suite's second level. */
  readonly highConcurrency: number;
  /** Conversations per sample at that level. */
  readonly highConcurrentRuns: number;
  /** Rounds of the in-process suite (its budget is a median of per-round differences). */
  readonly inProcessRounds: number;
  /** Conversations per sample in the in-process suite. */
  readonly inProcessRuns: number;
  /** `call()`s per sample in the hook-overhead suite. */
  readonly hookCalls: number;
  /** Agents parked at a model call at once in the memory suite. */
  readonly parkedAgents: number;
  /** Rounds of the parked-agents measurement. */
  readonly parkedRounds: number;
  /** Calls aborted mid-stream in the memory suite. */
  readonly abortedCalls: number;
  /** Rounds of the streaming suite. */
  readonly streamingRounds: number;
  /** Fresh processes per import-time sample. */
  readonly importRuns: number;
}

const FULL: BenchConfig = {
  quick: false,
  rounds: 9,
  httpWarmupRounds: 10,
  httpRounds: 31,
  httpRuns: 40,
  concurrentRounds: 15,
  concurrency: 16,
  concurrentRuns: 128,
  highConcurrency: 128,
  highConcurrentRuns: 384,
  inProcessRounds: 15,
  inProcessRuns: 400,
  hookCalls: 20_000,
  parkedAgents: 1_000,
  parkedRounds: 5,
  abortedCalls: 10_000,
  streamingRounds: 7,
  importRuns: 5,
};

const QUICK: BenchConfig = {
  quick: true,
  rounds: 3,
  httpWarmupRounds: 3,
  httpRounds: 3,
  httpRuns: 10,
  concurrentRounds: 3,
  concurrency: 8,
  concurrentRuns: 32,
  highConcurrency: 64,
  highConcurrentRuns: 64,
  inProcessRounds: 3,
  inProcessRuns: 100,
  hookCalls: 5_000,
  parkedAgents: 200,
  parkedRounds: 1,
  abortedCalls: 1_000,
  streamingRounds: 3,
  importRuns: 3,
};

/** The configuration for these command-line arguments. */
export function configFrom(args: readonly string[]): BenchConfig {
  return args.includes('--quick') ? QUICK : FULL;
}
