import { AgentHost, InMemorySession, type Msg, textOf } from '@rxagent/core';
import { EchoAgent } from '@rxagent/core/testing';
import { ReActAgent } from '@rxagent/react-agent';
import type { Contender } from '../contenders/contender.js';
import { rxagentInProcess, scriptedModel } from '../contenders/inProcess.js';
import type { BenchConfig } from '../lib/config.js';
import { interleave } from '../lib/interleave.js';
import { atMost, row, type SuiteResult } from '../lib/result.js';
import { pairRatios, settledHeap, summarize } from '../lib/stats.js';
import { timeConversations } from '../lib/timeConversations.js';
import { SYSTEM_PROMPT } from '../scenario/conversation.js';
import { benchToolkit } from '../scenario/tools.js';

/** Threads in the cycling measurement, and how many stay live. */
const CYCLE_THREADS = 10_000;
const CYCLE_LIVE = 1_000;

/** One toolkit for every agent, as an application's `create` shares it (and the plain agent). */
const toolkit = benchToolkit();

/** A fresh ReActAgent on the benchmark conversation's scripted model. */
function scenarioAgent(): ReActAgent {
  return new ReActAgent({
    name: 'assistant',
    sysPrompt: SYSTEM_PROMPT,
    model: scriptedModel(),
    toolkit,
  });
}

/**
 * The benchmark conversation on a host, a new thread each: `session` decides whether the
 * thread is loaded and saved (cold: a state saved beforehand is loaded, the call saved).
 */
function hostContender(label: string, session: InMemorySession | undefined): Contender {
  const host = new AgentHost({
    create: scenarioAgent,
    ...(session !== undefined && { session, maxLive: 1 }),
  });
  const emptyState = scenarioAgent().stateDict();
  let thread = 0;
  return {
    label,
    async run(prompt) {
      const threadId = `t${thread++}`;
      if (session) await session.save(threadId, emptyState);
      const reply = await host.reply(threadId, prompt);
      // Forget the thread, so threads do not pile up in the heap across rounds.
      await host.delete(threadId);
      return textOf(reply);
    },
  };
}

/** Heap per thread after `count` one-conversation threads (live, or evicted into a session). */
async function heapPerThread(count: number, evicted: boolean): Promise<number> {
  const base = await settledHeap();
  const session = evicted ? new InMemorySession() : undefined;
  const host = new AgentHost({
    create: scenarioAgent,
    maxLive: evicted ? 1 : count + 1,
    ...(session !== undefined && { session }),
  });
  for (let i = 0; i < count; i++) await host.reply(`t${i}`, 'What should I wear in Paris?');
  const perThread = ((await settledHeap()) - base) / count;
  if (host.liveThreads !== (evicted ? 1 : count))
    throw new Error(`${host.liveThreads} live threads`);
  return perThread;
}

/** Heap per plain agent after one conversation each, for comparison. */
async function heapPerAgent(count: number): Promise<number> {
  const base = await settledHeap();
  const agents: ReActAgent[] = [];
  for (let i = 0; i < count; i++) {
    const agent = scenarioAgent();
    await agent.reply('What should I wear in Paris?');
    agents.push(agent);
  }
  const perAgent = ((await settledHeap()) - base) / count;
  if (agents.some((agent) => agent.memory.messages().length === 0)) throw new Error('empty memory');
  return perAgent;
}

/**
 * `CYCLE_THREADS` threads of a stateless agent called in turn, `cycles` times, through a host
 * keeping `CYCLE_LIVE` live (so every call evicts one and most load one): the heap after each
 * cycle. Flat after the first means the host itself keeps nothing per call.
 */
async function cyclingHeaps(cycles: number, threads: number): Promise<number[]> {
  const host = new AgentHost({
    create: () => new EchoAgent({ name: 'echo' }),
    session: new InMemorySession(),
    maxLive: Math.min(CYCLE_LIVE, threads / 10),
  });
  const heaps: number[] = [];
  let last: Msg | undefined;
  for (let cycle = 0; cycle < cycles; cycle++) {
    for (let i = 0; i < threads; i++) last = await host.reply(`thread-${i}`, 'ping');
    heaps.push(await settledHeap());
  }
  if (last === undefined || textOf(last) !== 'ping') throw new Error('the echo did not answer');
  return heaps;
}

/**
 * Suite: AgentHost. CPU per model call of the benchmark conversation on a plain agent, on a
 * host thread that is live (created, no session), and on a cold thread (loaded from an
 * InMemorySession, called, saved, evicted); heap per idle thread, live and evicted, against
 * a plain agent's; and 10,000 threads cycling through 1,000 live ones.
 */
export async function agentHost(config: BenchConfig): Promise<SuiteResult> {
  const contenders = [
    rxagentInProcess(scriptedModel, () => ({}), 'plain agent'),
    hostContender('host, live thread', undefined),
    hostContender('host, cold thread (load + call + save)', new InMemorySession()),
  ];
  const samples = await interleave(
    contenders.map((c) => ({
      label: c.label,
      sample: () => timeConversations(c, config.inProcessRuns),
    })),
    config.inProcessRounds,
    2,
  );
  const cpu = (label: string) => samples.get(label, 'cpu');
  const warmRatio = pairRatios(cpu('host, live thread'), cpu('plain agent'));
  const coldRatio = pairRatios(cpu('host, cold thread (load + call + save)'), cpu('plain agent'));
  const heapCount = config.quick ? 100 : 1_000;
  const liveHeap = await heapPerThread(heapCount, false);
  const evictedHeap = await heapPerThread(heapCount, true);
  const agentHeap = await heapPerAgent(heapCount);
  const threads = config.quick ? 1_000 : CYCLE_THREADS;
  const heaps = await cyclingHeaps(3, threads);
  const growth = ((heaps.at(-1) as number) - (heaps[0] as number)) / (heaps[0] as number);
  const warm = summarize(warmRatio).median;
  return {
    id: 'agentHost',
    title: 'AgentHost: a call on a live and a cold thread, heap per thread, threads cycling',
    rows: [
      row('plain agent: CPU per model call', 'µs', cpu('plain agent')),
      row('host, live thread: CPU per model call', 'µs', cpu('host, live thread')),
      row(
        'host, cold thread (load + call + save): CPU per model call',
        'µs',
        cpu('host, cold thread (load + call + save)'),
      ),
      row('live thread ÷ plain agent (CPU)', '×', warmRatio),
      row('cold thread ÷ plain agent (CPU)', '×', coldRatio),
      row('heap per idle live thread', 'KB', [liveHeap / 1024]),
      row('heap per plain agent after the same conversation', 'KB', [agentHeap / 1024]),
      row('heap per evicted thread (its state in an InMemorySession)', 'KB', [evictedHeap / 1024]),
      row(
        `heap growth from cycle 1 to 3, ${threads} threads through maxLive ${Math.min(CYCLE_LIVE, threads / 10)}`,
        '%',
        [growth * 100],
      ),
    ],
    budgets: [
      atMost('AgentHost: a live-thread call ≤ 1.2 × a plain agent call (CPU)', warm, 1.2, '×'),
      atMost(
        'AgentHost: heap flat after the first cycle of 10,000 threads (≤ 2 % growth)',
        growth * 100,
        2,
        '%',
      ),
    ],
    details: { samples: samples.toJSON(), cyclingHeaps: heaps },
  };
}
