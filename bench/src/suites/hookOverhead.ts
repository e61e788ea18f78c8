import {
  AgentBase,
  assistantMsg,
  type CallContext,
  type Hook,
  type Msg,
  userMsg,
} from '@rxagent/core';
import { type Observable, of } from 'rxjs';
import type { BenchConfig } from '../lib/config.js';
import { interleave } from '../lib/interleave.js';
import { atMost, row, type SuiteResult } from '../lib/result.js';
import { pairDifferences, pairRatios, summarize } from '../lib/stats.js';

const REPLY = assistantMsg('pong', { name: 'noop' });
const INPUT = [userMsg('ping')];
const noop: Hook = { name: 'noop', onEvent: () => undefined };
/** preCall and postCall. */
const EVENTS_PER_CALL = 2;

/** The cheapest agent there is: its doCall replies at once. */
class NoopAgent extends AgentBase {
  protected override doCall(_msgs: Msg[], _context: CallContext): Observable<Msg> {
    return of(REPLY);
  }

  /** Calls doCall the way a subclass-free caller would, skipping AgentBase. */
  direct(msgs: Msg[], context: CallContext): Observable<Msg> {
    return this.doCall(msgs, context);
  }
}

const context: CallContext = {
  callId: 'direct',
  agent: new NoopAgent({ name: 'direct' }),
  signal: new AbortController().signal,
  options: {},
  systemPrompt: '',
  addUsage: () => undefined,
  usage: undefined,
  usageByAgent: undefined,
  notify: (event) => of(event),
  listens: () => false,
  takeSteered: () => [],
  durable: false,
  recovered: undefined,
  checkpoint: () => of(undefined),
};

function callsPerSecond(calls: number, once: (done: () => void) => void): number {
  let completed = 0;
  const done = () => void completed++;
  const t0 = performance.now();
  for (let i = 0; i < calls; i++) once(done);
  const seconds = (performance.now() - t0) / 1000;
  if (completed !== calls)
    throw new Error(`only ${completed} of ${calls} calls completed synchronously`);
  return calls / seconds;
}

/**
 * Suite 3b: `AgentBase.call()` with 0, 5 and 20 synchronous no-op hooks vs calling `doCall`
 * directly, on an agent whose doCall replies at once: calls per second, AgentBase's own cost
 * per call, and the cost of one hook per event.
 */
export async function hookOverhead(config: BenchConfig): Promise<SuiteResult> {
  const agents = new Map<number, NoopAgent>(
    [0, 5, 20].map((n) => [
      n,
      new NoopAgent({ name: 'noop', hooks: Array.from({ length: n }, () => noop) }),
    ]),
  );
  const direct = agents.get(0)!;
  const series = [
    {
      label: 'doCall() directly',
      sample: async () => ({
        value: callsPerSecond(config.hookCalls, (done) =>
          direct.direct(INPUT, context).subscribe({ complete: done }),
        ),
      }),
    },
    ...[0, 5, 20].map((n) => ({
      label: `call() with ${n} hooks`,
      sample: async () => {
        const agent = agents.get(n)!;
        return {
          value: callsPerSecond(config.hookCalls, (done) =>
            agent.call(INPUT).subscribe({ complete: done }),
          ),
        };
      },
    })),
  ];
  const samples = await interleave(series, config.rounds, 2);
  const get = (label: string) => samples.get(label);
  const us = (rates: number[]) => rates.map((rate) => 1e6 / rate);
  const baseCost = pairDifferences(us(get('call() with 0 hooks')), us(get('doCall() directly')));
  const perHook = (n: number) =>
    pairDifferences(us(get(`call() with ${n} hooks`)), us(get('call() with 0 hooks'))).map(
      (delta) => delta / (n * EVENTS_PER_CALL),
    );
  return {
    id: 'hookOverhead',
    title: `AgentBase.call() overhead: ${config.hookCalls.toLocaleString('en-US')} calls per sample, ${config.rounds} rounds`,
    rows: [
      ...series.map((s) => row(`${s.label}: calls per second`, '/s', get(s.label))),
      row(
        'call() with 0 hooks / doCall() directly (throughput)',
        '×',
        pairRatios(get('call() with 0 hooks'), get('doCall() directly')),
      ),
      row('AgentBase cost per call (0 hooks)', 'µs', baseCost),
      row('one no-op hook, per event (5 hooks)', 'µs', perHook(5)),
      row('one no-op hook, per event (20 hooks)', 'µs', perHook(20)),
    ],
    budgets: [
      atMost(
        'AgentBase.call(): each extra sync no-op hook ≤ 2 µs per event (20 hooks)',
        summarize(perHook(20)).median,
        2,
        'µs',
      ),
    ],
    details: { samples: samples.toJSON() },
  };
}
