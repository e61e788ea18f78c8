import type { AgentEvent, HookEventType, Usage } from '@rxagent/core';
import { MessageRefs, sharedTraceEntry, type TraceEntry } from './traceEntry.js';

/**
 * Every hook event type but the per-chunk ones, as a record typed over `HookEventType`: a
 * type core adds fails to compile here until it is listed, so no new event is left out of
 * traces unnoticed.
 */
const TRACED: Readonly<Record<Exclude<HookEventType, 'reasoningChunk' | 'actingChunk'>, true>> = {
  preCall: true,
  postCall: true,
  preReasoning: true,
  postReasoning: true,
  preActing: true,
  postActing: true,
  preSummary: true,
  postSummary: true,
  preCompress: true,
  postCompress: true,
  guardrail: true,
  memoryRecall: true,
  memoryWrite: true,
  error: true,
};

/**
 * The event types an eval run's trace keeps by default: every hook event but the per-chunk
 * ones (`reasoningChunk`, `actingChunk`), which the agent then does not build at all.
 */
export const TRACE_EVENTS: readonly HookEventType[] = Object.freeze(
  Object.keys(TRACED) as HookEventType[],
);

/**
 * The trace of one eval run, recorded as its events come: each a timed `TraceEntry` that
 * shares the event's messages, tool calls and results instead of copying them to JSON (the
 * run is over before anyone reads it), so recording costs an entry per event and keeps
 * nothing else of the event alive. The run's token usage is summed as the events come.
 */
export class RunTrace {
  readonly entries: TraceEntry[] = [];
  readonly #started: number;
  #lane: string | undefined = undefined;
  readonly #refs = new MessageRefs();
  #inputTokens = 0;
  #outputTokens = 0;
  #totalTokens = 0;

  constructor(started: number) {
    this.#started = started;
  }

  /** Records `event` at the current time. */
  record(event: AgentEvent): void {
    // The final reply event names no agent: it belongs to the lane of the call's agent.
    const at = performance.now() - this.#started;
    const entry = sharedTraceEntry(
      event,
      at,
      'agent' in event ? undefined : this.#lane,
      this.#refs,
    );
    this.#lane = entry.agent;
    this.entries.push(entry);
    if ((event.type === 'postReasoning' || event.type === 'postSummary') && event.usage) {
      this.#inputTokens += event.usage.inputTokens;
      this.#outputTokens += event.usage.outputTokens;
      this.#totalTokens += event.usage.totalTokens;
    }
  }

  /** Tokens of the model requests (reasoning and summary) of the run, nested agents' included. */
  usage(): Usage {
    return {
      inputTokens: this.#inputTokens,
      outputTokens: this.#outputTokens,
      totalTokens: this.#totalTokens,
    };
  }
}
