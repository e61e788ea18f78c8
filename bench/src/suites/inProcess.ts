import type { Hook } from '@rxagent/core';
import { userMsg } from '@rxagent/core';
import { ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom } from 'rxjs';
import { handLoopInProcess, rxagentInProcess, scriptedModel } from '../contenders/inProcess.js';
import type { BenchConfig } from '../lib/config.js';
import { interleave } from '../lib/interleave.js';
import { atMost, row, type SuiteResult } from '../lib/result.js';
import { pairDifferences, pairRatios, summarize } from '../lib/stats.js';
import { timeConversations } from '../lib/timeConversations.js';
import { CALLS_PER_RUN, SYSTEM_PROMPT, USER_PROMPT } from '../scenario/conversation.js';
import { benchToolkit } from '../scenario/tools.js';

const noop: Hook = { name: 'noop', onEvent: () => undefined };
const noopHooks = (count: number): Hook[] => Array.from({ length: count }, () => noop);

/** How many hook events one conversation fires (counted once with a counting hook). */
async function eventsPerRun(): Promise<number> {
  let events = 0;
  const agent = new ReActAgent({
    name: 'assistant',
    sysPrompt: SYSTEM_PROMPT,
    model: scriptedModel(),
    toolkit: benchToolkit(),
    hooks: [{ onEvent: () => void events++ }],
  });
  await lastValueFrom(agent.call(userMsg(USER_PROMPT)));
  return events;
}

/**
 * Suite 3a: the conversation on a `ScriptedChatModel` (no HTTP), rxagent vs a hand-written
 * loop over the same model, µs per turn (a turn = one model call and its tool batch). The
 * difference is rxagent's own cost per turn. Measured as CPU time (what the turn costs; on
 * a shared machine it is not inflated by other processes), with wall time alongside. Then the same with 1 and 21 no-op hooks: the
 * cost of one more synchronous hook per event, on the real mix of ReAct events.
 */
export async function inProcess(config: BenchConfig): Promise<SuiteResult> {
  const contenders = [
    rxagentInProcess(),
    handLoopInProcess(),
    rxagentInProcess(scriptedModel, () => ({ hooks: noopHooks(1) }), 'rxagent + 1 no-op hook'),
    rxagentInProcess(scriptedModel, () => ({ hooks: noopHooks(21) }), 'rxagent + 21 no-op hooks'),
  ];
  const samples = await interleave(
    contenders.map((contender) => ({
      label: contender.label,
      sample: () => timeConversations(contender, config.inProcessRuns),
    })),
    config.inProcessRounds,
    2,
  );
  const events = await eventsPerRun();
  const get = (label: string) => samples.get(label, 'cpu');
  const wall = (label: string) => samples.get(label, 'wall');
  const rx = get('rxagent');
  const hand = get('hand-written loop');
  const cost = pairDifferences(rx, hand);
  const perHook = pairDifferences(
    get('rxagent + 21 no-op hooks'),
    get('rxagent + 1 no-op hook'),
  ).map((delta) => (delta * CALLS_PER_RUN) / (20 * events));
  return {
    id: 'inProcess',
    title: `In-process (ScriptedChatModel): ${config.inProcessRuns} conversations × ${CALLS_PER_RUN} turns per sample, ${config.inProcessRounds} rounds`,
    rows: [
      ...contenders.map((c) => row(`${c.label}: CPU per turn`, 'µs', get(c.label))),
      ...contenders.map((c) => row(`${c.label}: wall per turn`, 'µs', wall(c.label))),
      row('rxagent / hand-written loop (CPU)', '×', pairRatios(rx, hand)),
      row('rxagent own cost per turn (rxagent − hand-written loop, CPU)', 'µs', cost),
      row(
        'rxagent own cost per turn (wall)',
        'µs',
        pairDifferences(wall('rxagent'), wall('hand-written loop')),
      ),
      row(`one more no-op hook, per event (${events} events per conversation)`, 'µs', perHook),
    ],
    budgets: [
      atMost(
        'In-process: framework cost per turn with the default hooks ≤ 5 µs',
        summarize(cost).median,
        5,
        'µs',
      ),
      atMost(
        'In-process: each extra sync no-op hook ≤ 2 µs per event (ReAct event mix)',
        summarize(perHook).median,
        2,
        'µs',
      ),
    ],
    details: { samples: samples.toJSON(), eventsPerConversation: events },
  };
}
