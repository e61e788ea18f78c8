import { type Guardrail, guardrail, piiGuardrail, runGuardrails, userMsg } from '@rxagent/core';
import { ScriptedChatModel } from '@rxagent/core/testing';
import { ReActAgent } from '@rxagent/react-agent';
import { firstValueFrom, lastValueFrom, tap } from 'rxjs';
import type { BenchConfig } from '../lib/config.js';
import { atMost, row, type SuiteResult } from '../lib/result.js';
import { pairDifferences, summarize } from '../lib/stats.js';

/** About 10 KB of a support conversation with a few pieces of personal data in it. */
function message10k(): string {
  const line =
    'The customer wrote about order A-1001, delivered on 2026-11-28 for 149 EUR; the tracking page was slow. ';
  const filler = line.repeat(Math.ceil(10_000 / line.length));
  return `${filler.slice(0, 4_000)} Reach me at jane.roe@example.com or +44 20 7946 0958, card 4111 1111 1111 1111. ${filler.slice(0, 5_800)}`;
}

const agentRef = new ReActAgent({ name: 'bench', sysPrompt: '', model: new ScriptedChatModel([]) });

/** Milliseconds per `runGuardrails` of `guards` on `text`, over `runs` runs. */
async function checkMs(guards: readonly Guardrail[], text: string, runs: number): Promise<number> {
  const signal = new AbortController().signal;
  const start = performance.now();
  for (let i = 0; i < runs; i++)
    await firstValueFrom(runGuardrails(guards, 'input', text, { agent: agentRef, signal }));
  return (performance.now() - start) / runs;
}

/** Milliseconds from `stream()` to its first text chunk, for a reply streamed in `chunks` pieces. */
async function firstTokenMs(
  guards: readonly Guardrail[],
  chunks: number,
  chunkDelayMs: number,
): Promise<number> {
  const model = new ScriptedChatModel([
    { text: 'word '.repeat(chunks), chunkSize: 5, chunkDelayMs },
  ]);
  const agent = new ReActAgent({ name: 'bench', sysPrompt: '', model, guardrails: guards });
  const start = performance.now();
  let first = Number.NaN;
  await lastValueFrom(
    agent.stream(userMsg('hi')).pipe(
      tap((event) => {
        if (event.type === 'reasoningChunk' && Number.isNaN(first))
          first = performance.now() - start;
      }),
    ),
  );
  return first;
}

/**
 * Guardrails: what a deterministic guardrail costs per request (`piiGuardrail` checking a
 * 10 KB message, which holds an e-mail address, a phone number and a card number, in its
 * redacting form), and what holding a streamed reply back for an output guardrail adds to
 * the time to the first visible token (a pass-through output guardrail, a reply of 40 chunks
 * 2 ms apart, against no guardrail).
 */
export async function guardrails(config: BenchConfig): Promise<SuiteResult> {
  const text = message10k();
  const rounds = config.quick ? 3 : 9;
  const runs = config.quick ? 50 : 400;
  const pii = [piiGuardrail({ redact: true })];
  const trip = [piiGuardrail()];
  await checkMs(pii, text, runs); // warm-up
  const redactMs: number[] = [];
  const tripMs: number[] = [];
  for (let r = 0; r < rounds; r++) {
    redactMs.push(await checkMs(pii, text, runs));
    tripMs.push(await checkMs(trip, text, runs));
  }
  const pass = [guardrail({ name: 'pass', on: 'output', check: () => ({ tripped: false }) })];
  const bare: number[] = [];
  const held: number[] = [];
  for (let r = 0; r < rounds; r++) {
    bare.push(await firstTokenMs([], 40, 2));
    held.push(await firstTokenMs(pass, 40, 2));
  }
  const redact = summarize(redactMs).median;
  return {
    id: 'guardrails',
    title: `Guardrails: piiGuardrail on a ${text.length}-character message (${runs} checks per sample), first token with an output guardrail, ${rounds} rounds`,
    rows: [
      row('piiGuardrail({ redact: true }) per 10 KB request', 'ms', redactMs),
      row('piiGuardrail() (trips) per 10 KB request', 'ms', tripMs),
      row('first text chunk, no guardrail (40 chunks 2 ms apart)', 'ms', bare),
      row('first text chunk, one output guardrail', 'ms', held),
      row('added time to first token by holding the reply', 'ms', pairDifferences(held, bare)),
    ],
    budgets: [atMost('Guardrails: piiGuardrail ≤ 1 ms per 10 KB request', redact, 1, 'ms')],
    details: { redactMs, tripMs, bare, held },
  };
}
