import type { AgentEvent, HookEventType, Usage } from '@rxagent/core';
import { type TraceEntry, toTraceEntry } from './traceEntry.js';

/**
 * The event types an eval run's trace keeps by default: every hook event but the per-chunk
 * ones (`reasoningChunk`, `actingChunk`), which the agent then does not build at all.
 */
export const TRACE_EVENTS: readonly HookEventType[] = Object.freeze([
  'preCall',
  'postCall',
  'preReasoning',
  'postReasoning',
  'preActing',
  'postActing',
  'preSummary',
  'postSummary',
  'preCompress',
  'postCompress',
  'error',
]);

/**
 * The trace of one eval run as it is recorded: each event's frozen `stream()` snapshot and
 * its time, kept as they come (two array pushes per event). The JSON `TraceEntry`s are made
 * once, when `entries()` is first asked for (a scorer that reads the trace, or the report's
 * `trace` being read or written), so a run whose trace nobody reads pays nothing to copy it.
 */
export class RunTrace {
  readonly #events: AgentEvent[] = [];
  readonly #times: number[] = [];
  readonly #started: number;
  #entries: readonly TraceEntry[] | undefined;

  constructor(started: number) {
    this.#started = started;
  }

  /** Records `event` at the current time. */
  readonly record = (event: AgentEvent): void => {
    this.#events.push(event);
    this.#times.push(performance.now() - this.#started);
  };

  /** The events recorded so far (the snapshots, not copies). */
  get events(): readonly AgentEvent[] {
    return this.#events;
  }

  /** The timed JSON entries, made on the first call and the same array after it. */
  entries(): readonly TraceEntry[] {
    if (this.#entries !== undefined) return this.#entries;
    const entries: TraceEntry[] = [];
    let lane: string | undefined;
    for (let i = 0; i < this.#events.length; i++) {
      const event = this.#events[i]!;
      // The final reply event names no agent: it belongs to the lane of the call's agent.
      const entry = entryOf(event, this.#times[i]!, 'agent' in event ? undefined : lane);
      lane = entry.agent;
      entries.push(entry);
    }
    this.#events.length = 0; // the snapshots are no longer needed: release them
    this.#times.length = 0;
    this.#entries = entries;
    return entries;
  }

  /** Tokens of the model requests (reasoning and summary) of the run, nested agents' included. */
  usage(): Usage {
    const usage: Usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
    const add = (from: Usage | undefined) => {
      if (from === undefined) return;
      usage.inputTokens += from.inputTokens;
      usage.outputTokens += from.outputTokens;
      usage.totalTokens += from.totalTokens;
    };
    if (this.#entries !== undefined) {
      for (const { event } of this.#entries)
        if (event.type === 'postReasoning' || event.type === 'postSummary') add(event.usage);
      return usage;
    }
    for (const event of this.#events)
      if (event.type === 'postReasoning' || event.type === 'postSummary') add(event.usage);
    return usage;
  }
}

/** `toTraceEntry`, or an `error` entry saying why the event could not be copied (e.g. a cycle). */
function entryOf(event: AgentEvent, at: number, agent: string | undefined): TraceEntry {
  try {
    return toTraceEntry(event, at, agent);
  } catch (error) {
    const name = agent ?? ('agent' in event ? event.agent.name : 'agent');
    const message = `the ${event.type} event could not be copied into the trace: ${error instanceof Error ? error.message : String(error)}`;
    return { at, agent: name, event: { type: 'error', error: { name: 'TraceError', message } } };
  }
}
