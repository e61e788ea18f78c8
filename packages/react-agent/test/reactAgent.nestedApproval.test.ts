import {
  type AgentEvent,
  handoffPipeline,
  InvalidArgumentError,
  isNestedEvent,
  type JsonObject,
  type Msg,
  replyMetadata,
  Toolkit,
  textOf,
  tool,
  toolDecisions,
  toolResults,
  userMsg,
} from '@rxagent/core';
import type { ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { harness, run, transcript, weatherTool, wireMessages } from './harness.js';

type Script = Parameters<typeof harness>[0];

/** A tool that needs approval; records its runs. `slow` waits until its run is aborted. */
function approvalTool(name: string, runs: JsonObject[], slow = false) {
  return tool({
    name,
    description: `Does ${name}.`,
    parameters: z.object({ what: z.string() }),
    needsApproval: true,
    execute: ({ what }, { signal }) => {
      runs.push({ what });
      if (!slow) return `${name} done: ${what}`;
      return new Promise<string>((_, reject) =>
        signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
      );
    },
  });
}

const ask = (toolName: string, request: string, id: string) => ({
  toolCalls: [{ id, name: toolName, arguments: { request } }],
});
const use = (toolName: string, what: string, id: string) => ({
  toolCalls: [{ id, name: toolName, arguments: { what } }],
});

/** travel → booking (its tool `book` needs approval). */
async function twoLevels(travelScript: Script, bookingScript: Script, slow = false) {
  const booked: JsonObject[] = [];
  const booking = await harness(bookingScript, {
    name: 'booking',
    description: 'Books flights.',
    toolkit: new Toolkit([approvalTool('book', booked, slow)]),
  });
  const travel = await harness(travelScript, {
    name: 'travel',
    toolkit: new Toolkit([booking.agent.asTool({ name: 'ask_booking' })]),
  });
  return { travel, booking, booked };
}

/** travel → booking → payments (its tool `pay` needs approval). */
async function threeLevels(travelScript: Script, bookingScript: Script, paymentsScript: Script) {
  const paid: JsonObject[] = [];
  const payments = await harness(paymentsScript, {
    name: 'payments',
    toolkit: new Toolkit([approvalTool('pay', paid)]),
  });
  const booking = await harness(bookingScript, {
    name: 'booking',
    toolkit: new Toolkit([payments.agent.asTool({ name: 'ask_payments' })]),
  });
  const travel = await harness(travelScript, {
    name: 'travel',
    toolkit: new Toolkit([booking.agent.asTool({ name: 'ask_booking' })]),
  });
  return { travel, booking, payments, paid };
}

const TRAVEL_ASKS = ask('ask_booking', 'Book flight AF1.', 't1');
const BOOKING_BOOKS = use('book', 'AF1', 'b1');

function resultsOf(agent: ReActAgent): [string, string][] {
  return agent.memory
    .messages()
    .flatMap(toolResults)
    .map((r) => [r.id, String(r.output)]);
}

describe('nested approval through agent.asTool()', () => {
  it('stops the parent with the nested call pending (with its path) and the parent call open', async () => {
    const { travel, booking, booked } = await twoLevels([TRAVEL_ASKS], [BOOKING_BOOKS]);

    const stopped = await run(travel.agent, userMsg('Get me on AF1.'));

    const meta = replyMetadata(stopped);
    expect(meta.generateReason).toBe('approval_required');
    expect(meta.approvalRequired).toEqual(['b1']);
    expect(meta.pendingToolCalls).toEqual([
      {
        type: 'tool_use',
        id: 'b1',
        name: 'book',
        input: { what: 'AF1' },
        metadata: { path: ['travel', 'booking'] },
      },
    ]);
    expect(booked).toEqual([]);
    expect(transcript(travel.agent.memory.messages())).toEqual([
      'user:Get me on AF1.',
      'assistant:tool_use(ask_booking)',
    ]);
    expect(transcript(booking.agent.memory.messages())).toEqual([
      'user:Book flight AF1.',
      'assistant:tool_use(book)',
    ]);
    // The sub-agent's own reply names its call without a path.
    expect(travel.agent.isRunning).toBe(false);
    expect(booking.agent.isRunning).toBe(false);
  });

  it('runs the nested call when the parent approves its id; the sub-agent reply is the tool result', async () => {
    const { travel, booking, booked } = await twoLevels(
      [TRAVEL_ASKS, 'You are booked on AF1.', 'You are welcome.'],
      [BOOKING_BOOKS, 'Booked AF1.'],
    );
    await run(travel.agent, userMsg('Get me on AF1.'));

    const reply = await run(travel.agent, toolDecisions({ approve: ['b1'] }));

    expect(textOf(reply)).toBe('You are booked on AF1.');
    expect(replyMetadata(reply).generateReason).toBe('stop');
    expect(booked).toEqual([{ what: 'AF1' }]);
    expect(resultsOf(booking.agent)).toEqual([['b1', 'book done: AF1']]);
    expect(resultsOf(travel.agent)).toEqual([['t1', 'Booked AF1.']]);
    expect(wireMessages(travel.server, 1).map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
    ]);
    // The stop is over: nothing waits, and a decision now is refused.
    await expect(run(travel.agent, toolDecisions({ approve: ['b1'] }))).rejects.toThrow(
      /no tool call waits/,
    );
    expect(textOf(await run(travel.agent, userMsg('thanks')))).toBe('You are welcome.');
  });

  it('denies the nested call with the reason when the parent denies its id', async () => {
    const { travel, booking, booked } = await twoLevels(
      [TRAVEL_ASKS, 'Booking was refused.'],
      [BOOKING_BOOKS, 'I could not book AF1.'],
    );
    await run(travel.agent, userMsg('Get me on AF1.'));

    const reply = await run(travel.agent, toolDecisions({ deny: { b1: 'too expensive' } }));

    expect(textOf(reply)).toBe('Booking was refused.');
    expect(booked).toEqual([]);
    const [[id, output]] = resultsOf(booking.agent) as [[string, string]];
    expect(id).toBe('b1');
    expect(output).toMatch(/^\[denied\].*too expensive/);
    expect(resultsOf(travel.agent)).toEqual([['t1', 'I could not book AF1.']]);
  });

  it('passes an edit, remembered tools and who decided down to the sub-agent', async () => {
    const { travel, booking, booked } = await twoLevels(
      [TRAVEL_ASKS, 'Booked.', ask('ask_booking', 'Book flight BA2.', 't2'), 'Booked too.'],
      [BOOKING_BOOKS, 'Booked AF9.', use('book', 'BA2', 'b2'), 'Booked BA2.'],
    );
    await run(travel.agent, userMsg('Get me on AF1.'));

    const decisions = toolDecisions({
      edit: { b1: { what: 'AF9' } },
      remember: ['book'],
      by: 'ana',
    });
    await run(travel.agent, decisions);

    // The tool ran with the edit; the sub-agent's memory keeps the model's arguments.
    expect(booked).toEqual([{ what: 'AF9' }]);
    const messages = booking.agent.memory.messages();
    expect(messages.flatMap((m) => m.content).find((b) => b.type === 'tool_use')).toMatchObject({
      id: 'b1',
      input: { what: 'AF1' },
    });
    const result = messages.find((m) => toolResults(m)[0]?.id === 'b1')!;
    expect(result.metadata['decision']).toMatchObject({ decision: 'edited', by: 'ana' });
    // `book` is the sub-agent's tool: the sub-agent remembers it, so its next call runs at once.
    expect(booking.agent.stateDict()['approvals']).toMatchObject({
      remembered: { book: { by: 'ana' } },
    });
    const parentApprovals = travel.agent.stateDict()['approvals'] as { remembered?: object };
    expect(Object.keys(parentApprovals.remembered ?? {})).toEqual([]);
    const next = await run(travel.agent, userMsg('And BA2.'));
    expect(replyMetadata(next).generateReason).toBe('stop');
    expect(booked).toEqual([{ what: 'AF9' }, { what: 'BA2' }]);
  });

  it('approves the nested calls on a parent call() with no input', async () => {
    const { travel, booked } = await twoLevels(
      [TRAVEL_ASKS, 'Done.'],
      [BOOKING_BOOKS, 'Booked AF1.'],
    );
    await run(travel.agent, userMsg('Get me on AF1.'));

    const reply = await run(travel.agent);

    expect(textOf(reply)).toBe('Done.');
    expect(booked).toEqual([{ what: 'AF1' }]);
  });

  it('rejects a decision naming an unknown id and changes nothing; the right id then works', async () => {
    const { travel, booking, booked } = await twoLevels(
      [TRAVEL_ASKS, 'Done.'],
      [BOOKING_BOOKS, 'Booked AF1.'],
    );
    await run(travel.agent, userMsg('Get me on AF1.'));
    const travelBefore = JSON.stringify(travel.agent.stateDict());
    const bookingBefore = JSON.stringify(booking.agent.stateDict());

    const error = await run(travel.agent, toolDecisions({ approve: ['b9'] })).catch((e) => e);

    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(String(error.message)).toMatch(/b9/);
    expect(String(error.message)).toMatch(/b1/);
    expect(JSON.stringify(travel.agent.stateDict())).toBe(travelBefore);
    expect(JSON.stringify(booking.agent.stateDict())).toBe(bookingBefore);
    expect(booked).toEqual([]);
    expect(textOf(await run(travel.agent, toolDecisions({ approve: ['b1'] })))).toBe('Done.');
  });

  it('resumes after both agents are saved and loaded into fresh agents, both conversations valid', async () => {
    const first = await twoLevels([TRAVEL_ASKS], [BOOKING_BOOKS]);
    await run(first.travel.agent, userMsg('Get me on AF1.'));
    const saved = {
      travel: JSON.parse(JSON.stringify(first.travel.agent.stateDict())),
      booking: JSON.parse(JSON.stringify(first.booking.agent.stateDict())),
    };

    const fresh = await twoLevels(['You are booked.', 'Bye.'], ['Booked AF1.', 'Anything else?']);
    fresh.travel.agent.loadStateDict(saved.travel);
    fresh.booking.agent.loadStateDict(saved.booking);
    const reply = await run(fresh.travel.agent, toolDecisions({ approve: ['b1'] }));

    expect(textOf(reply)).toBe('You are booked.');
    expect(fresh.booked).toEqual([{ what: 'AF1' }]);
    expect(first.booked).toEqual([]);
    expect(resultsOf(fresh.travel.agent)).toEqual([['t1', 'Booked AF1.']]);
    // Both conversations go on, and the strict server accepts them (checked after each test).
    expect(textOf(await run(fresh.booking.agent, userMsg('thanks')))).toBe('Anything else?');
    expect(textOf(await run(fresh.travel.agent, userMsg('thanks')))).toBe('Bye.');
    expect(wireMessages(fresh.booking.server, 1).map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
    ]);
  });

  it('keeps both conversations valid when the parent is interrupted while the approved call runs', async () => {
    const { travel, booking, booked } = await twoLevels(
      [TRAVEL_ASKS, 'travel again'],
      [BOOKING_BOOKS, 'booking again'],
      true,
    );
    await run(travel.agent, userMsg('Get me on AF1.'));
    const started = new Promise<void>((resolve) => {
      booking.agent.addHook({
        onEvent: (event) => {
          if (event.type === 'preActing') resolve();
        },
      });
    });

    const done = run(travel.agent, toolDecisions({ approve: ['b1'] }));
    await started;
    travel.agent.interrupt();
    const reply = await done;

    expect(replyMetadata(reply).generateReason).toBe('interrupted');
    expect(booked).toEqual([{ what: 'AF1' }]);
    expect(booking.agent.isRunning).toBe(false);
    expect(resultsOf(travel.agent)[0]?.[1]).toMatch(/^\[interrupted\]/);
    expect(resultsOf(booking.agent)[0]?.[1]).toMatch(/^\[interrupted\]/);
    expect(textOf(await run(booking.agent, userMsg('again')))).toBe('booking again');
    expect(textOf(await run(travel.agent, userMsg('again')))).toBe('travel again');
  });

  it('closes the open call when the parent gets a new message instead of a decision', async () => {
    const { travel, booking, booked } = await twoLevels(
      [TRAVEL_ASKS, 'Never mind then.'],
      [BOOKING_BOOKS, 'Hello again.'],
    );
    await run(travel.agent, userMsg('Get me on AF1.'));

    expect(textOf(await run(travel.agent, userMsg('Forget it.')))).toBe('Never mind then.');
    expect(resultsOf(travel.agent)[0]?.[1]).toMatch(/^\[cancelled\]/);
    expect(textOf(await run(booking.agent, userMsg('hi')))).toBe('Hello again.');
    expect(booked).toEqual([]);
  });

  it('stores the results of the rest of the batch past the waiting call, in a valid conversation', async () => {
    const booked: JsonObject[] = [];
    const booking = await harness([BOOKING_BOOKS, 'Booked AF1.'], {
      name: 'booking',
      toolkit: new Toolkit([approvalTool('book', booked)]),
    });
    const weather: JsonObject[] = [];
    const travel = await harness(
      [
        {
          toolCalls: [
            { id: 't1', name: 'ask_booking', arguments: { request: 'Book AF1.' } },
            { id: 'w1', name: 'get_weather', arguments: { city: 'Paris' } },
          ],
        },
        'Booked, and sunny in Paris.',
      ],
      {
        name: 'travel',
        toolkit: new Toolkit([booking.agent.asTool({ name: 'ask_booking' }), weatherTool(weather)]),
      },
    );

    const stopped = await run(travel.agent, userMsg('Book AF1; weather in Paris?'));

    expect(replyMetadata(stopped).approvalRequired).toEqual(['b1']);
    expect(weather).toEqual([{ city: 'Paris' }]);
    expect(resultsOf(travel.agent)).toEqual([['w1', 'Sunny, 21°C']]);
    const reply = await run(travel.agent, toolDecisions({ approve: ['b1'] }));
    expect(textOf(reply)).toBe('Booked, and sunny in Paris.');
    expect(weather).toHaveLength(1);
    expect(resultsOf(travel.agent)).toEqual([
      ['w1', 'Sunny, 21°C'],
      ['t1', 'Booked AF1.'],
    ]);
  });

  it('waits on two sub-agents of one batch at once; each resumes with the decisions for its own calls', async () => {
    const booked: JsonObject[] = [];
    const reserved: JsonObject[] = [];
    const booking = await harness([BOOKING_BOOKS, 'Booked AF1.'], {
      name: 'booking',
      toolkit: new Toolkit([approvalTool('book', booked)]),
    });
    const hotel = await harness([use('reserve', 'Ritz', 'h1'), 'No room booked.'], {
      name: 'hotel',
      toolkit: new Toolkit([approvalTool('reserve', reserved)]),
    });
    const travel = await harness(
      [
        {
          toolCalls: [
            { id: 't1', name: 'ask_booking', arguments: { request: 'Book AF1.' } },
            { id: 't2', name: 'ask_hotel', arguments: { request: 'Reserve the Ritz.' } },
          ],
        },
        'Flight booked, no hotel.',
      ],
      {
        name: 'travel',
        toolkit: new Toolkit([
          booking.agent.asTool({ name: 'ask_booking' }),
          hotel.agent.asTool({ name: 'ask_hotel' }),
        ]),
      },
    );

    const stopped = await run(travel.agent, userMsg('Flight and hotel, please.'));

    const meta = replyMetadata(stopped);
    expect(meta.approvalRequired).toEqual(['b1', 'h1']);
    expect(meta.pendingToolCalls?.map((c) => c.metadata?.path)).toEqual([
      ['travel', 'booking'],
      ['travel', 'hotel'],
    ]);
    const reply = await run(
      travel.agent,
      toolDecisions({ approve: ['b1'], deny: { h1: 'too dear' } }),
    );

    expect(textOf(reply)).toBe('Flight booked, no hotel.');
    expect(booked).toEqual([{ what: 'AF1' }]);
    expect(reserved).toEqual([]);
    expect(resultsOf(hotel.agent)[0]?.[1]).toMatch(/^\[denied\].*too dear/);
    expect(resultsOf(travel.agent)).toEqual([
      ['t1', 'Booked AF1.'],
      ['t2', 'No room booked.'],
    ]);
  });

  it('reaches through three levels: stop with the whole path, approve, deny', async () => {
    const { travel, booking, payments, paid } = await threeLevels(
      [ask('ask_booking', 'Book AF1 and pay.', 't1'), 'Paid and booked.'],
      [ask('ask_payments', 'Pay 300 for AF1.', 'b1'), 'Booking paid.'],
      [use('pay', '300', 'p1'), 'Paid 300.'],
    );

    const stopped = await run(travel.agent, userMsg('Book and pay AF1.'));

    const meta = replyMetadata(stopped);
    expect(meta.generateReason).toBe('approval_required');
    expect(meta.approvalRequired).toEqual(['p1']);
    expect(meta.pendingToolCalls?.map((c) => [c.id, c.metadata?.path])).toEqual([
      ['p1', ['travel', 'booking', 'payments']],
    ]);
    expect(replyMetadata(booking.agent.memory.messages().at(-1)!).generateReason).toBeUndefined();
    expect(paid).toEqual([]);

    const reply = await run(travel.agent, toolDecisions({ approve: ['p1'] }));

    expect(textOf(reply)).toBe('Paid and booked.');
    expect(paid).toEqual([{ what: '300' }]);
    expect(resultsOf(payments.agent)).toEqual([['p1', 'pay done: 300']]);
    expect(resultsOf(booking.agent)).toEqual([['b1', 'Paid 300.']]);
    expect(resultsOf(travel.agent)).toEqual([['t1', 'Booking paid.']]);
  });

  it('denies through three levels after all three agents are saved and loaded', async () => {
    const first = await threeLevels(
      [ask('ask_booking', 'Book AF1 and pay.', 't1')],
      [ask('ask_payments', 'Pay 300 for AF1.', 'b1')],
      [use('pay', '300', 'p1')],
    );
    await run(first.travel.agent, userMsg('Book and pay AF1.'));
    const states = [first.travel, first.booking, first.payments].map((h) =>
      JSON.parse(JSON.stringify(h.agent.stateDict())),
    );

    const fresh = await threeLevels(['Not paid.'], ['Payment refused.'], ['I did not pay.']);
    [fresh.travel, fresh.booking, fresh.payments].forEach((h, i) => {
      h.agent.loadStateDict(states[i]);
    });
    const reply = await run(fresh.travel.agent, toolDecisions({ deny: { p1: 'no budget' } }));

    expect(textOf(reply)).toBe('Not paid.');
    expect(fresh.paid).toEqual([]);
    expect(resultsOf(fresh.payments.agent)[0]?.[1]).toMatch(/^\[denied\].*no budget/);
    expect(resultsOf(fresh.booking.agent)).toEqual([['b1', 'I did not pay.']]);
    expect(resultsOf(fresh.travel.agent)).toEqual([['t1', 'Payment refused.']]);
  });
});

describe('nested events in stream()', () => {
  it("carries the sub-agents' events with their path; the parent's own have none", async () => {
    const { travel } = await threeLevels(
      [ask('ask_booking', 'Book AF1 and pay.', 't1'), 'Paid and booked.'],
      [ask('ask_payments', 'Pay 300.', 'b1'), 'Booking paid.'],
      [use('pay', '300', 'p1'), 'Paid 300.'],
    );
    await run(travel.agent, userMsg('Book and pay AF1.'));

    const events = await lastValueFrom(
      travel.agent.stream(toolDecisions({ approve: ['p1'] })).pipe(toArray()),
    );

    const own = events.filter((e) => !isNestedEvent(e));
    expect(own.every((e) => e.type === 'reply' || e.agent === travel.agent)).toBe(true);
    expect(own.filter((e) => e.type === 'reply')).toHaveLength(1);
    expect(events.at(-1)?.type).toBe('reply');
    const nested = events.filter(isNestedEvent);
    const paths = new Set(nested.map((e) => e.path.join('/')));
    expect(paths).toEqual(new Set(['travel/booking', 'travel/booking/payments']));
    const paymentsText = nested
      .filter((e) => e.path.length === 3 && e.type === 'reasoningChunk')
      .map((e) => (e.type === 'reasoningChunk' ? (e.delta.text ?? '') : ''))
      .join('');
    expect(paymentsText).toBe('Paid 300.');
    const postCalls = nested.filter((e) => e.type === 'postCall').map((e) => e.path.join('/'));
    expect(postCalls).toEqual(['travel/booking/payments', 'travel/booking']);
    const payActing = nested.find((e) => e.type === 'postActing' && e.toolCall.name === 'pay');
    expect(payActing?.path).toEqual(['travel', 'booking', 'payments']);
    // The parent's actingChunk text is still its direct sub-agent's reply text only.
    const acting = own
      .map((e: AgentEvent) => (e.type === 'actingChunk' ? String(e.chunk) : ''))
      .join('');
    expect(acting).toBe('Booking paid.');
  });

  it('streams the events of a nested stop and names the nested call in the reply', async () => {
    const { travel } = await twoLevels([TRAVEL_ASKS], [BOOKING_BOOKS]);

    const events = await lastValueFrom(
      travel.agent.stream(userMsg('Get me on AF1.')).pipe(toArray()),
    );

    const nested = events.filter(isNestedEvent);
    expect(nested.some((e) => e.type === 'postReasoning')).toBe(true);
    expect(nested.every((e) => e.path.join('/') === 'travel/booking')).toBe(true);
    const reply = events.at(-1) as { type: 'reply'; msg: Msg };
    expect(replyMetadata(reply.msg).approvalRequired).toEqual(['b1']);
  });
});

describe('approval stops in a handoff pipeline', () => {
  const transfer = (to: string) => ({
    toolCalls: [{ id: `t_${to}`, name: `transfer_to_${to}`, arguments: {} }],
  });

  async function desk(triageScript: Script, billingScript: Script) {
    const refunds: JsonObject[] = [];
    const billing = await harness(billingScript, {
      name: 'billing',
      description: 'Refunds.',
      toolkit: new Toolkit([approvalTool('refund', refunds)]),
    });
    const triage = await harness(triageScript, { name: 'triage', handoffs: [billing.agent] });
    return { triage, billing, refunds, agents: [triage.agent, billing.agent] };
  }

  it('surfaces the stop with the path and resumes with startWith the agent that stopped', async () => {
    const { billing, refunds, agents } = await desk(
      [transfer('billing')],
      [use('refund', 'order 7', 'r1'), 'Refund sent.'],
    );

    const stopped = await lastValueFrom(handoffPipeline(agents, userMsg('Refund order 7.')));

    const meta = replyMetadata(stopped);
    expect(meta.generateReason).toBe('approval_required');
    expect(stopped.metadata['handoffPath']).toEqual(['triage', 'billing']);
    expect(meta.approvalRequired).toEqual(['r1']);
    expect(meta.pendingToolCalls?.map((c) => [c.id, c.metadata?.path])).toEqual([
      ['r1', ['billing']],
    ]);
    expect(refunds).toEqual([]);

    const reply = await lastValueFrom(
      handoffPipeline(agents, toolDecisions({ approve: ['r1'] }), { startWith: 'billing' }),
    );

    expect(textOf(reply)).toBe('Refund sent.');
    expect(reply.metadata['handoffPath']).toEqual(['billing']);
    expect(refunds).toEqual([{ what: 'order 7' }]);
    expect(resultsOf(billing.agent)).toEqual([['r1', 'refund done: order 7']]);
  });

  it('resumes a stop inside an asTool sub-agent of a handed-to agent, after save and load', async () => {
    const build = async (triageScript: Script, billingScript: Script, ledgerScript: Script) => {
      const refunds: JsonObject[] = [];
      const ledger = await harness(ledgerScript, {
        name: 'ledger',
        toolkit: new Toolkit([approvalTool('refund', refunds)]),
      });
      const billing = await harness(billingScript, {
        name: 'billing',
        toolkit: new Toolkit([ledger.agent.asTool({ name: 'ask_ledger' })]),
      });
      const triage = await harness(triageScript, { name: 'triage', handoffs: [billing.agent] });
      return { refunds, all: [triage.agent, billing.agent, ledger.agent] };
    };
    const first = await build(
      [transfer('billing')],
      [ask('ask_ledger', 'Refund order 7.', 'b1')],
      [use('refund', 'order 7', 'r1')],
    );
    const stopped = await lastValueFrom(
      handoffPipeline(first.all.slice(0, 2), userMsg('Refund order 7.')),
    );
    expect(replyMetadata(stopped).pendingToolCalls?.[0]?.metadata?.path).toEqual([
      'billing',
      'ledger',
    ]);
    const states = first.all.map((agent) => JSON.parse(JSON.stringify(agent.stateDict())));

    const fresh = await build([], ['Your refund is done.'], ['Refunded order 7.']);
    fresh.all.forEach((agent, i) => {
      agent.loadStateDict(states[i]);
    });
    const startWith = replyMetadata(stopped).pendingToolCalls![0]!.metadata!.path![0]!;
    const reply = await lastValueFrom(
      handoffPipeline(fresh.all.slice(0, 2), toolDecisions({ approve: ['r1'] }), { startWith }),
    );

    expect(textOf(reply)).toBe('Your refund is done.');
    expect(fresh.refunds).toEqual([{ what: 'order 7' }]);
    expect(first.refunds).toEqual([]);
  });
});
