import {
  assistantMsg,
  type Hook,
  type HookEvent,
  type Msg,
  type ToolUseBlock,
  userMsg,
} from '@rxagent/core';
import { otelHook } from '@rxagent/otel';
import { ReActAgent } from '@rxagent/react-agent';
import type { Contender } from '../contenders/contender.js';
import { rxagentInProcess, scriptedModel } from '../contenders/inProcess.js';
import type { BenchConfig } from '../lib/config.js';
import { interleave } from '../lib/interleave.js';
import { atMost, row, type SuiteResult } from '../lib/result.js';
import { pairDifferences, summarize } from '../lib/stats.js';
import { timeConversations } from '../lib/timeConversations.js';
import { CALLS_PER_RUN, SYSTEM_PROMPT } from '../scenario/conversation.js';

/** rxagent in process with one hook, made fresh per agent by `hook`. */
const rxagentWithHook = (label: string, hook: () => Hook): Contender =>
  rxagentInProcess(scriptedModel, () => ({ hooks: [hook()] }), label);

const noop: Hook = { name: 'noop', onEvent: () => undefined };
/** Streamed chunks per model request in the direct measurement. */
const CHUNKS_PER_REQUEST = 8;

/** One conversation's events as a hook sees them: per turn a request, its chunks, two tools. */
function conversationEvents(): HookEvent[] {
  const agent = new ReActAgent({
    name: 'assistant',
    sysPrompt: SYSTEM_PROMPT,
    model: scriptedModel(),
  });
  const reply: Msg = assistantMsg('Sunny.', { name: 'assistant' });
  const stop = { stopAgent: () => undefined, stopRequested: false };
  const usage = { inputTokens: 100, outputTokens: 20, totalTokens: 120 };
  const events: HookEvent[] = [
    { type: 'preCall', agent, input: [userMsg('hi')], systemPrompt: SYSTEM_PROMPT },
  ];
  for (let turn = 0; turn < CALLS_PER_RUN; turn++) {
    events.push({
      type: 'preReasoning',
      agent,
      messages: [],
      systemPrompt: SYSTEM_PROMPT,
      tools: [],
      toolChoice: undefined,
      options: {},
    });
    for (let chunk = 0; chunk < CHUNKS_PER_REQUEST; chunk++) {
      events.push({ type: 'reasoningChunk', agent, delta: { text: 'word ' }, accumulated: reply });
    }
    events.push({
      type: 'postReasoning',
      agent,
      reply,
      usage,
      finishReason: 'tool_calls',
      ...stop,
    });
    const calls: ToolUseBlock[] = [0, 1].map((i) => ({
      type: 'tool_use',
      id: `call_${turn}_${i}`,
      name: 'get_weather',
      input: { city: 'Paris' },
    }));
    for (const toolCall of calls)
      events.push({ type: 'preActing', agent, toolCall, deny: () => undefined });
    for (const toolCall of calls) {
      const result = {
        type: 'tool_result',
        id: toolCall.id,
        name: toolCall.name,
        output: 'ok',
      } as const;
      events.push({ type: 'postActing', agent, toolCall, result, ...stop });
    }
  }
  events.push({ type: 'postCall', agent, reply });
  return events;
}

/** µs per turn that `hook.onEvent` spends on `conversations` runs of `events`, called directly. */
function directCostPerTurn(
  hook: Hook,
  events: readonly HookEvent[],
  conversations: number,
): number {
  const t0 = performance.now();
  for (let i = 0; i < conversations; i++) {
    for (const event of events) hook.onEvent(event);
  }
  return ((performance.now() - t0) * 1000) / (conversations * CALLS_PER_RUN);
}

/**
 * Suite 3c: `otelHook()` on OpenTelemetry's no-op tracer (the API with no SDK registered, as
 * in an application that installs the hook but exports nothing). End to end: the in-process
 * conversation with the hook against the same agent with one no-op hook (what the hook's own
 * work costs per turn; a turn = one model request and its two tool calls) and against no
 * hook at all (any first hook turns streamed chunks into events, measured in the in-process
 * suite). Those differences move by several µs on a shared machine, so the budget line
 * times the hook's `onEvent` directly on one conversation's events: the same work without
 * the agent around it.
 */
export async function otelOverhead(config: BenchConfig): Promise<SuiteResult> {
  const contenders = [
    rxagentInProcess(),
    rxagentWithHook('rxagent + 1 no-op hook', () => noop),
    rxagentWithHook('rxagent + otelHook (no-op tracer)', () => otelHook()),
  ];
  const samples = await interleave(
    contenders.map((contender) => ({
      label: contender.label,
      sample: () => timeConversations(contender, config.inProcessRuns),
    })),
    config.rounds,
    2,
  );
  const events = conversationEvents();
  const hook = otelHook();
  const direct = await interleave(
    [
      {
        label: 'direct',
        sample: async () => ({ value: directCostPerTurn(hook, events, config.hookCalls) }),
      },
    ],
    config.rounds,
    2,
  );
  const get = (label: string) => samples.get(label, 'cpu');
  const otel = get('rxagent + otelHook (no-op tracer)');
  const directCost = direct.get('direct');
  return {
    id: 'otelOverhead',
    title: `otelHook on a no-op tracer: ${config.inProcessRuns} conversations × ${CALLS_PER_RUN} turns per sample, ${config.rounds} rounds`,
    rows: [
      ...contenders.map((c) => row(`${c.label}: CPU per turn`, 'µs', get(c.label))),
      row(
        'otelHook own cost per turn (otelHook − 1 no-op hook, CPU)',
        'µs',
        pairDifferences(otel, get('rxagent + 1 no-op hook')),
      ),
      row(
        'otelHook cost per turn vs no hook at all (CPU)',
        'µs',
        pairDifferences(otel, get('rxagent')),
      ),
      row(
        `otelHook.onEvent on one turn's events (${CHUNKS_PER_REQUEST} chunks, 2 tools), called directly`,
        'µs',
        directCost,
      ),
    ],
    budgets: [
      atMost(
        "otelHook with a no-op tracer ≤ 5 µs per turn (onEvent on a turn's events)",
        summarize(directCost).median,
        5,
        'µs',
      ),
    ],
    details: { samples: samples.toJSON(), direct: direct.toJSON() },
  };
}
