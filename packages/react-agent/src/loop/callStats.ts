import { addUsage, type JsonObject, type ReplyStats, type Usage } from '@rxagent/core';

/**
 * The counters of one ReActAgent call behind `reply.metadata.stats` (reasoning steps are
 * the call state's `iterations`), and the usage of a finish guard's judge, kept apart from
 * the agent's own.
 */
export class CallStats {
  /** Requests to the agent's model: reasoning and summary steps. */
  modelCalls = 0;
  /** Tool calls the loop handled: run, denied, or answered as duplicates. */
  toolCalls = 0;
  /** The judge's token usage (`reply.metadata.judgeUsage`), when it reported one. */
  judgeUsage: Usage | undefined;
  readonly #started = performance.now();

  /** Adds one judge request's usage. */
  addJudgeUsage(usage: Usage | undefined): void {
    this.judgeUsage = addUsage(this.judgeUsage, usage);
  }

  /** `{ iterations, modelCalls, toolCalls, elapsedMs }` as of now. */
  snapshot(iterations: number): ReplyStats {
    return {
      iterations,
      modelCalls: this.modelCalls,
      toolCalls: this.toolCalls,
      elapsedMs: Math.round(performance.now() - this.#started),
    };
  }

  /** The reply metadata these stats add: `stats`, and `judgeUsage` when a judge reported usage. */
  metadata(iterations: number): JsonObject {
    const stats = { ...this.snapshot(iterations) };
    return this.judgeUsage ? { stats, judgeUsage: { ...this.judgeUsage } } : { stats };
  }
}

const NO_STATS: JsonObject = {
  stats: { iterations: 0, modelCalls: 0, toolCalls: 0, elapsedMs: 0 },
};

/**
 * The reply metadata of a call's stats (see `CallStats.metadata`); zeros when the call's
 * loop never started (e.g. an interrupt during preCall hooks).
 */
export function callStatsMetadata(
  state: { readonly stats: CallStats; readonly iterations: number } | undefined,
): JsonObject {
  return state ? state.stats.metadata(state.iterations) : NO_STATS;
}
