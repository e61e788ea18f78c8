import { userMsg } from '@rxagent/core';
import { ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom } from 'rxjs';
import { rxagentInProcess, scriptedModel } from '../contenders/inProcess.js';
import { noopHook, TURN_EVENTS } from '../contenders/noopHook.js';
import type { BenchConfig } from '../lib/config.js';
import { interleave } from '../lib/interleave.js';
import { atMost, row, type SuiteResult } from '../lib/result.js';
import { pairDifferences, summarize } from '../lib/stats.js';
import { timeConversations } from '../lib/timeConversations.js';
import { CALLS_PER_RUN, SYSTEM_PROMPT, USER_PROMPT } from '../scenario/conversation.js';
import { benchToolkit } from '../scenario/tools.js';

/** How many chunk events one conversation would build (counted once with a chunk hook). */
async function chunkEventsPerRun(): Promise<number> {
  let chunks = 0;
  const agent = new ReActAgent({
    name: 'assistant',
    sysPrompt: SYSTEM_PROMPT,
    model: scriptedModel(),
    toolkit: benchToolkit(),
    hooks: [{ events: ['reasoningChunk'], onEvent: () => void chunks++ }],
  });
  await lastValueFrom(agent.call(userMsg(USER_PROMPT)));
  return chunks;
}

const IGNORING = 'rxagent + 1 hook ignoring chunks';
const ALL = 'rxagent + 1 hook on every event';

/**
 * Suite 3c: what the first hook costs per turn when it names the events it wants and leaves
 * out the per-chunk ones (a logger, a tracer): the agent then builds no chunk event and
 * streams the reply straight into its accumulator. The conversation on a `ScriptedChatModel`
 * (streamed text reply, parallel tool rounds), CPU µs per turn, against no hook and against
 * one no-op hook on every event (which makes every chunk an event).
 */
export async function chunkFreeHook(config: BenchConfig): Promise<SuiteResult> {
  const contenders = [
    rxagentInProcess(),
    rxagentInProcess(scriptedModel, () => ({ hooks: [noopHook(TURN_EVENTS)] }), IGNORING),
    rxagentInProcess(scriptedModel, () => ({ hooks: [noopHook()] }), ALL),
  ];
  const samples = await interleave(
    contenders.map((contender) => ({
      label: contender.label,
      sample: () => timeConversations(contender, config.inProcessRuns),
    })),
    config.rounds,
    2,
  );
  const chunks = await chunkEventsPerRun();
  const get = (label: string) => samples.get(label, 'cpu');
  const firstHook = pairDifferences(get(IGNORING), get('rxagent'));
  return {
    id: 'chunkFreeHook',
    title: `First hook, chunks left out: ${config.inProcessRuns} conversations × ${CALLS_PER_RUN} turns (${chunks} chunk events) per sample, ${config.rounds} rounds`,
    rows: [
      ...contenders.map((c) => row(`${c.label}: CPU per turn`, 'µs', get(c.label))),
      row('first hook ignoring chunks, per turn (CPU)', 'µs', firstHook),
      row(
        'first hook on every event, per turn (CPU)',
        'µs',
        pairDifferences(get(ALL), get('rxagent')),
      ),
    ],
    budgets: [
      atMost(
        'In-process: the first hook that ignores chunks ≤ 5 µs per turn',
        summarize(firstHook).median,
        5,
        'µs',
      ),
    ],
    details: { samples: samples.toJSON(), chunkEventsPerConversation: chunks },
  };
}
