import { IN_DOUBT_OUTPUT, textOf, userMsg } from '@rxagent/core';
import { RestateAgent } from '@rxagent/restate';
import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeRestate, type Harness, startHarness } from './harness.js';

/** Resolves once `check` holds, polling every 20 ms, or rejects after `ms`. */
async function until(check: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describeRestate('restateAgent: the endpoint killed (SIGKILL) and started again', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  }, 60_000);
  afterAll(async () => {
    await h?.stop();
  }, 30_000);

  const agent = (key: string) =>
    new RestateAgent({
      name: 'assistant',
      ingressUrl: h.restate.ingressUrl,
      service: 'assistant',
      key,
    });

  it('mid-tool: one reply, the non-idempotent tool run once and in doubt, no stored reply requested again', async () => {
    const before = h.openai.requests.length;
    h.openai.enqueue(
      { toolCalls: [{ id: 'call_book', name: 'book', arguments: { room: '101', ms: 60_000 } }] },
      'The booking of 101 may or may not have happened.',
    );
    const reply = agent('mid-tool').reply('Book room 101.');
    await h.endpoint.waitFor('TOOL STARTED');
    await h.killEndpoint();
    await h.startEndpoint();
    const msg = await reply;
    expect(textOf(msg)).toBe('The booking of 101 may or may not have happened.');
    expect(h.lines('book.log')).toEqual(['101']);
    const requests = h.openai.requests.slice(before);
    expect(requests).toHaveLength(2);
    expect(h.openai.rejected).toHaveLength(0);
    const toolMessage = (
      requests[1]!.body['messages'] as { role: string; content: unknown }[]
    ).find((message) => message.role === 'tool');
    expect(toolMessage?.content).toBe(IN_DOUBT_OUTPUT);
  }, 60_000);

  it('mid-stream: one reply on stream(), the tool not run again, only the cut reply requested again', async () => {
    const before = h.openai.requests.length;
    h.openai.enqueue(
      { toolCalls: [{ id: 'call_seven', name: 'book', arguments: { room: '7', ms: 0 } }] },
      { text: 'one two three four five six seven eight', chunkDelayMs: 250 },
      'Booked room 7.',
    );
    const events = lastValueFrom(agent('mid-stream').stream('Book room 7.').pipe(toArray()));
    await until(() => h.openai.requests.length - before >= 2);
    await new Promise((resolve) => setTimeout(resolve, 400));
    await h.killEndpoint();
    await h.startEndpoint();
    const all = await events;
    const replies = all.filter((event) => event.type === 'reply');
    expect(replies).toHaveLength(1);
    expect(all.at(-1)?.type).toBe('reply');
    expect(textOf((replies[0] as { msg: Parameters<typeof textOf>[0] }).msg)).toBe(
      'Booked room 7.',
    );
    expect(h.lines('book.log').filter((room) => room === '7')).toHaveLength(1);
    expect(h.openai.requests.length - before).toBe(3);
    expect(h.openai.rejected).toHaveLength(0);
    // The restarted endpoint replays the recorded steps' events under the same numbers: the
    // reader skips those it had, so the tool's event arrives once.
    expect(all.filter((event) => event.type === 'postActing')).toHaveLength(1);
    expect(all.filter((event) => event.type === 'preActing')).toHaveLength(1);
  }, 60_000);

  it('observes messages into the conversation (as a hub participant does)', async () => {
    const before = h.openai.requests.length;
    h.openai.enqueue('Noted: a late arrival.');
    const desk = agent('observer');
    await lastValueFrom(desk.observe(userMsg('The guest arrives at 23:00.')), {
      defaultValue: undefined,
    });
    await desk.reply('Anything I should know?');
    const sent = JSON.stringify(h.openai.requests[before]!.body['messages']);
    expect(sent).toContain('The guest arrives at 23:00.');
  }, 30_000);

  it('keeps the conversation in the object state: the next call sees it, valid', async () => {
    const before = h.openai.requests.length;
    h.openai.enqueue('You asked about room 7.');
    const msg = await agent('mid-stream').reply('What did I ask?');
    expect(textOf(msg)).toBe('You asked about room 7.');
    const sent = h.openai.requests[before]!.body['messages'] as {
      role: string;
      content: unknown;
    }[];
    expect(sent.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
    ]);
    expect(h.openai.rejected).toHaveLength(0);
  }, 30_000);
});
