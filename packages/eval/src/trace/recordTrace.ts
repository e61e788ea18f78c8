import { type AgentBase, type AgentEvent, checkOptions, type HookEvent } from '@rxagent/core';
import { MessageRefs, sharedTraceEntry, type TraceEntry } from './traceEntry.js';

/** Options of `recordTrace`. */
export interface RecordTraceOptions {
  /** Milliseconds for the entries' `at` (default `performance.now`), made relative to the start. */
  readonly clock?: () => number;
  /** Priority of the recording hooks (default 10,000: after the application's own hooks, so their changes show). */
  readonly priority?: number;
}

/** A trace being recorded: its entries so far, and `stop()` to remove the hooks. */
export interface TraceRecording {
  /** The entries so far, in the order the events fired (a live array). */
  readonly entries: readonly TraceEntry[];
  /** Removes every hook the recording added; the entries stay. Idempotent. */
  stop(): void;
}

const OPTION_KEYS = ['clock', 'priority'] as const;

/**
 * Records every hook event of several agents — the participants of a `MsgHub`, the agents of
 * a pipeline, an agent and the sub-agents it calls as tools — as timed `TraceEntry`s, one lane
 * per agent, for `traceHtml`. Pipelines and hubs call their agents with `call()`, so the
 * events are taken where they happen: a hook is added to each agent. A single agent's run
 * needs no recording: pass its `stream()` events to `traceHtml` (or time them with
 * `toTraceEntry`).
 *
 * The entries keep the events' Msgs, tool calls and results themselves (Msgs are immutable
 * values, and hooks assign new ones rather than change them), not JSON copies, and each
 * agent's requests share the message refs of the messages they have in common.
 *
 * @example
 * ```ts
 * const team = [researcher, writer];
 * const recording = recordTrace(team);
 * await lastValueFrom(msgHub({ participants: team }, () => sequentialPipeline(team)));
 * recording.stop();
 * const page = traceHtml(recording.entries, { title: 'research round' });
 * ```
 */
export function recordTrace(
  agents: readonly AgentBase[] | { readonly participants: readonly AgentBase[] },
  options: RecordTraceOptions = {},
): TraceRecording {
  checkOptions(options, OPTION_KEYS, 'recordTrace');
  const list = 'participants' in agents ? agents.participants : agents;
  const clock = options.clock ?? (() => performance.now());
  const started = clock();
  const entries: TraceEntry[] = [];
  const removers = list.map((agent) => {
    const refs = new MessageRefs();
    return agent.addHook({
      name: 'recordTrace',
      priority: options.priority ?? 10_000,
      onEvent: (event: HookEvent) => {
        entries.push(sharedTraceEntry(event as AgentEvent, clock() - started, agent.name, refs));
      },
    });
  });
  let stopped = false;
  return {
    entries,
    stop: () => {
      if (stopped) return;
      stopped = true;
      for (const remove of removers) remove();
    },
  };
}
