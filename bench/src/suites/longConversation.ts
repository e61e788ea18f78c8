import {
  applyCompression,
  compressContext,
  estimateTokens,
  type Msg,
  type ToolSchema,
} from '@rxagent/core';
import type { ReActAgent } from '@rxagent/react-agent';
import { rxagentInProcess, scriptedModel } from '../contenders/inProcess.js';
import type { BenchConfig } from '../lib/config.js';
import { interleave } from '../lib/interleave.js';
import { atMost, row, type SuiteResult } from '../lib/result.js';
import { pairDifferences, settledHeap, summarize } from '../lib/stats.js';
import { timeConversations } from '../lib/timeConversations.js';
import { chatTurns, longChatAgent } from '../scenario/longChat.js';

/** Conversation turns (one user question, a tool call, its 5 KB result, an answer). */
const TURNS = 200;
/** The earlier point the heap is compared with. */
const EARLY_TURNS = 20;
const MAX_TOKENS = 8_000;

/** What one context step saw: memory before it ran, and the request around it. */
interface SeenRequest {
  readonly messages: readonly Msg[];
  readonly systemPrompt: string;
  readonly tools: readonly ToolSchema[];
}

/**
 * One agent through the whole conversation with a scripted summary: the size of every
 * request by the counter (a preReasoning hook), and the memory each context step was given
 * (the counter's first call of each step), for the replay below.
 */
async function checkedRun(): Promise<{
  sizes: number[];
  seen: SeenRequest[];
  compressions: number;
}> {
  const sizes: number[] = [];
  const seen: SeenRequest[] = [];
  let armed = true;
  let compressions = 0;
  const agent = longChatAgent({
    context: {
      maxTokens: MAX_TOKENS,
      countTokens: (request) => {
        if (armed) {
          armed = false;
          seen.push({
            messages: [...request.messages],
            systemPrompt: request.systemPrompt,
            tools: request.tools,
          });
        }
        return estimateTokens(request);
      },
    },
  });
  agent.addHook({
    onEvent: (event) => {
      if (event.type === 'postCompress') compressions++;
      if (event.type !== 'preReasoning') return;
      armed = true;
      const { systemPrompt, messages, tools } = event;
      sizes.push(estimateTokens({ systemPrompt, messages, tools, selfName: agent.name }));
    },
  });
  await chatTurns(agent, 0, TURNS);
  return { sizes, seen, compressions };
}

/**
 * µs of CPU per conversation turn that the context step's own work takes ('drop', so no
 * summary request): every request counted, and where it does not fit, the plan, the marker,
 * the second count and `applyCompression` — replayed on the memory each step really saw.
 */
function compressionCpuPerTurn(
  agent: ReActAgent,
  seen: readonly SeenRequest[],
  reps: number,
): number {
  const cpu0 = process.cpuUsage();
  for (let rep = 0; rep < reps; rep++) {
    for (const request of seen) {
      compressContext({
        agent,
        ...request,
        maxTokens: MAX_TOKENS,
        strategy: 'drop',
        selfName: agent.name,
      }).subscribe((result) => {
        if (result.compressed) applyCompression(request.messages, result.replaced, result.summary);
      });
    }
  }
  const used = process.cpuUsage(cpu0);
  return (used.user + used.system) / (reps * TURNS);
}

/**
 * Heap per agent after `EARLY_TURNS` and after `TURNS` turns of `agents` agents, one after
 * another, after one agent's whole conversation as a warm-up (so code V8 compiles on the way
 * is not counted as the agents' memory).
 */
async function heapPerAgent(agents: number): Promise<{ early: number; late: number }> {
  await chatTurns(longChatAgent({ context: { maxTokens: MAX_TOKENS } }), 0, TURNS);
  const base = await settledHeap();
  const crowd = Array.from({ length: agents }, () =>
    longChatAgent({ context: { maxTokens: MAX_TOKENS } }),
  );
  for (const agent of crowd) await chatTurns(agent, 0, EARLY_TURNS);
  const early = ((await settledHeap()) - base) / agents;
  for (const agent of crowd) await chatTurns(agent, EARLY_TURNS, TURNS);
  const late = ((await settledHeap()) - base) / agents;
  if (crowd.some((agent) => agent.memory.messages().length === 0)) throw new Error('empty memory');
  return { early, late };
}

/**
 * Suite 7: context engineering over a 200-turn research chat (each turn a question, a
 * `read_source` call with a 5 KB result, an answer) with `context: { maxTokens: 8000 }` and a
 * scripted summary: every request's size by the counter, heap per agent after 20 and after
 * 200 turns, the compression's own CPU per turn (replayed with 'drop', no summary request),
 * and the in-process conversation with a `context` that never triggers against none (plus a
 * second no-context series, whose difference from the first is the noise).
 */
export async function longConversation(config: BenchConfig): Promise<SuiteResult> {
  // Timed first: measured after the 200-turn chats below (compressions, heap measurements),
  // the context-set series came out 2 – 5 µs a turn slower than no context, against 0.6 µs
  // for the same two agents timed in a fresh process.
  const contenders = [
    rxagentInProcess(scriptedModel, () => ({}), 'no context'),
    rxagentInProcess(scriptedModel, () => ({}), 'no context (again)'),
    rxagentInProcess(
      scriptedModel,
      () => ({ context: { maxTokens: 1_000_000 } }),
      'context set, never triggered',
    ),
  ];
  const samples = await interleave(
    contenders.map((c) => ({
      label: c.label,
      sample: () => timeConversations(c, config.inProcessRuns),
    })),
    config.inProcessRounds,
    2,
  );
  const checked = await checkedRun();
  const largest = Math.max(...checked.sizes);
  const replayAgent = longChatAgent();
  const replay = await interleave(
    [
      {
        label: 'replay',
        sample: async () => ({
          value: compressionCpuPerTurn(replayAgent, checked.seen, config.quick ? 5 : 20),
        }),
      },
    ],
    config.rounds,
    2,
  );
  const heaps: Array<{ early: number; late: number }> = [];
  for (let round = 0; round < (config.quick ? 1 : 3); round++) {
    heaps.push(await heapPerAgent(config.quick ? 10 : 30));
  }
  const cpu = (label: string) => samples.get(label, 'cpu');
  const extra = pairDifferences(cpu('context set, never triggered'), cpu('no context'));
  const noise = pairDifferences(cpu('no context (again)'), cpu('no context')).map(Math.abs);
  const heapRatios = heaps.map((h) => h.late / h.early);
  const compressionCpu = replay.get('replay');
  return {
    id: 'longConversation',
    title: `Context over a ${TURNS}-turn chat with 5 KB tool results, maxTokens ${MAX_TOKENS}`,
    rows: [
      row('largest request by the counter (tokens)', 'tokens', [largest]),
      row('requests', '', [checked.sizes.length]),
      row('compressions in the conversation', '', [checked.compressions]),
      row(
        `heap per agent after ${EARLY_TURNS} turns`,
        'KB',
        heaps.map((h) => h.early / 1024),
      ),
      row(
        `heap per agent after ${TURNS} turns`,
        'KB',
        heaps.map((h) => h.late / 1024),
      ),
      row(`heap per agent, ${TURNS} / ${EARLY_TURNS} turns`, '×', heapRatios),
      row("compression's own CPU per turn ('drop', replayed)", 'µs', compressionCpu),
      ...contenders.map((c) => row(`in-process, ${c.label}: CPU per turn`, 'µs', cpu(c.label))),
      row('context set, never triggered − no context (CPU per turn)', 'µs', extra),
      row('noise: |no context (again) − no context| (CPU per turn)', 'µs', noise),
    ],
    budgets: [
      atMost(
        `every request ≤ ${MAX_TOKENS} tokens by the counter (${TURNS} turns)`,
        largest,
        MAX_TOKENS,
        'tokens',
      ),
      atMost(
        `heap per agent after ${TURNS} turns ≤ 2× that after ${EARLY_TURNS}`,
        summarize(heapRatios).median,
        2,
        '×',
      ),
      atMost(
        "compression's own CPU per turn ≤ 50 µs ('drop')",
        summarize(compressionCpu).median,
        50,
        'µs',
      ),
      atMost(
        'context set but never triggered: extra CPU per turn within the noise of no context',
        summarize(extra).median,
        summarize(noise).max,
        'µs',
      ),
    ],
    details: { sizes: checked.sizes, heaps, samples: samples.toJSON(), replay: replay.toJSON() },
  };
}
