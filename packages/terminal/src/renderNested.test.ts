import { Toolkit, tool, toolDecisions, userMsg } from '@rxagent/core';
import { ScriptedChatModel, type ScriptedReply } from '@rxagent/core/testing';
import { ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { capture, steppingClock } from '../test/outputs.js';
import { renderEvents } from './renderEvents.js';

/** travel → booking → payments, each an asTool of the one above; `pay` needs approval. */
function agents(travel: ScriptedReply[], booking: ScriptedReply[], payments: ScriptedReply[]) {
  const pay = tool({
    name: 'pay',
    description: 'Pays.',
    parameters: z.object({ amount: z.number() }),
    needsApproval: true,
    execute: ({ amount }) => `paid ${amount}`,
  });
  const make = (name: string, script: ScriptedReply[], tools: Toolkit) =>
    new ReActAgent({
      name,
      sysPrompt: 'Be brief.',
      model: new ScriptedChatModel(script),
      toolkit: tools,
    });
  const pays = make('payments', payments, new Toolkit([pay]));
  const books = make('booking', booking, new Toolkit([pays.asTool({ name: 'ask_payments' })]));
  return make('travel', travel, new Toolkit([books.asTool({ name: 'ask_booking' })]));
}

const ask = (name: string, request: string, id: string): ScriptedReply => ({
  toolCalls: [{ id, name, arguments: { request } }],
});

describe('renderEvents with sub-agents', () => {
  it('indents each sub-agent under the tool call that runs it, its text printed once', async () => {
    const travel = agents(
      [ask('ask_booking', 'Book AF1.', 't1'), 'All set.'],
      [ask('ask_payments', 'Pay 300.', 'b1'), 'Booked and paid.'],
      [{ toolCalls: [{ id: 'p1', name: 'pay', arguments: { amount: 300 } }] }, 'Paid 300.'],
    );
    const stop = capture();
    await lastValueFrom(
      travel.stream(userMsg('Book AF1.')).pipe(renderEvents({ out: stop, clock: steppingClock() })),
    );
    expect(stop.text).toMatch(
      new RegExp(
        [
          '^→ ask_booking \\{"request":"Book AF1\\."\\}',
          '  │ → ask_payments \\{"request":"Pay 300\\."\\}',
          '  │   │ ⏸ approval required: pay\\(\\{"amount":300\\}\\)',
          '⏸ approval required: pay\\(\\{"amount":300\\}\\) · travel › booking › payments',
          '✓ .*\\n$',
        ].join('\\n'),
      ),
    );

    const out = capture();
    await lastValueFrom(
      travel
        .stream(toolDecisions({ approve: ['p1'] }))
        .pipe(renderEvents({ out, clock: steppingClock() })),
    );
    const lines = out.text.split('\n');
    expect(lines.slice(0, -2)).toEqual([
      '→ ask_booking {"request":"Book AF1."}',
      '  │ → ask_payments {"request":"Pay 300."}',
      '  │   │ → pay {"amount":300}',
      '  │   │ ← pay: paid 300 · 0.1 s',
      '  │   │ payments: Paid 300.',
      expect.stringMatching(/^ {2}│ ← ask_payments: Paid 300\. · \d+\.\d s$/),
      '  │ booking: Booked and paid.',
      expect.stringMatching(/^← ask_booking: Booked and paid\. · \d+\.\d s$/),
      'travel: All set.',
    ]);
    expect(out.text.match(/Paid 300\./g)).toHaveLength(2);
  });
});
