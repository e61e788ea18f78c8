import { assistantMsg, type Msg, Toolkit, textOf, tool, userMsg } from '@rxagent/core';
import { ScriptedChatModel } from '@rxagent/core/testing';
import { type EvalCase, evaluate, includes, type TraceEntry, traceHtml } from '@rxagent/eval';
import { ReActAgent } from '@rxagent/react-agent';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MessageRefs } from '../src/trace/traceEntry.js';

const lookup = tool({
  name: 'lookup',
  description: 'Looks a city up.',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `${city}: 21 °C`,
});
const forecast = tool({
  name: 'forecast',
  description: 'Tomorrow in a city.',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `${city}: sunny`,
});

/** One tool step (a lookup) and an answer, with the given tools offered. */
function agentWith(tools: readonly (typeof lookup)[]) {
  return (testCase: EvalCase) =>
    new ReActAgent({
      name: 'weather',
      sysPrompt: 'Use lookup.',
      toolkit: new Toolkit([...tools]),
      model: new ScriptedChatModel([
        { toolCalls: [{ name: 'lookup', arguments: { city: testCase.id } }] },
        `It is 21 °C in ${testCase.id} today.`,
      ]),
    });
}

const event = <T extends TraceEntry['event']['type']>(trace: readonly TraceEntry[], type: T) =>
  trace.filter((entry) => entry.event.type === type).map((entry) => entry.event) as Extract<
    TraceEntry['event'],
    { type: T }
  >[];

describe("an eval run's trace: shared, not copied", () => {
  it('holds every event with what the trace page needs, the same page as its JSON copy', async () => {
    const report = await evaluate({
      dataset: [{ id: 'Oslo', input: 'Weather in Oslo?', expected: '21 °C' }],
      agent: agentWith([lookup]),
      scorers: [includes()],
      progress: false,
    });
    const run = report.cases[0]!;
    const [preCall] = event(run.trace, 'preCall');
    const [first, second] = event(run.trace, 'preReasoning');
    const asked = run.trace.find((entry) => entry.event.type === 'postReasoning')!.event as {
      readonly reply: Msg;
    };
    // The second request's refs: the user's message (the first request's ref, shared), the
    // tool call and the tool result, each naming its message.
    expect(second!.messages.map((ref) => ref.role)).toEqual(['user', 'assistant', 'tool']);
    expect(second!.messages[0]).toBe(first!.messages[0]);
    expect(second!.messages[0]!.id).toBe(preCall!.input[0]!.id);
    expect(second!.messages[1]!.id).toBe(asked.reply.id);
    expect(Object.keys(second!.messages[2]!).sort()).toEqual(['id', 'name', 'role']);
    // The reply event is the run's reply.
    const [reply] = event(run.trace, 'reply');
    expect(reply!.msg).toBe(run.reply);
    expect(Object.keys(reply!)).toEqual(['type', 'msg']);
    // The page from the shared entries is the page from the report's JSON.
    const page = traceHtml(run.trace, { title: 'Oslo' });
    expect(page).toBe(traceHtml(JSON.parse(JSON.stringify(run.trace)), { title: 'Oslo' }));
    expect(page).toContain('lookup');
    expect(page).toContain('Oslo: 21 °C');
    expect(page).toContain(textOf(run.reply!));
    expect(page.match(/data-kind="event"/g)).toHaveLength(run.trace.length);
  });

  it("names each request's own tools when agents offering different tools alternate", async () => {
    const toolsOf = [[lookup], [lookup, forecast], [lookup], [forecast, lookup]];
    const dataset = toolsOf.map((_, i) => ({
      id: `city${i}`,
      input: `city${i}?`,
      expected: '21 °C',
    }));
    const report = await evaluate({
      dataset,
      agent: (testCase) => agentWith(toolsOf[dataset.indexOf(testCase as never)]!)(testCase),
      scorers: [includes()],
      progress: false,
    });
    expect(report.passRate).toBe(1);
    const offered = report.cases.map((run) =>
      event(run.trace, 'preReasoning').map((request) => request.tools),
    );
    expect(offered).toEqual([
      [['lookup'], ['lookup']],
      [
        ['lookup', 'forecast'],
        ['lookup', 'forecast'],
      ],
      [['lookup'], ['lookup']],
      [
        ['forecast', 'lookup'],
        ['forecast', 'lookup'],
      ],
    ]);
    // Shared arrays are frozen: no run can change another's names.
    for (const runs of offered) for (const names of runs) expect(Object.isFrozen(names)).toBe(true);
  });
});

describe('MessageRefs', () => {
  const refs = (messages: Msg[], from = new MessageRefs()) => ({ from, refs: from.of(messages) });

  it("shares the refs of the previous request's messages where they are the same objects", () => {
    const user = userMsg('hi');
    const reply = assistantMsg('hello', { name: 'bot' });
    const { from, refs: first } = refs([user]);
    const second = from.of([user, reply]);
    expect(second[0]).toBe(first[0]);
    expect(second[1]).toEqual({ id: reply.id, name: 'bot', role: 'assistant' });
    expect(first).toHaveLength(1);
  });

  it('makes a new ref for a different message at the same place, even with the same id', () => {
    const user = userMsg('hi');
    const { from, refs: first } = refs([user]);
    const renamed = { ...user, name: 'someone' } as Msg;
    const [again] = from.of([renamed]);
    expect(again).not.toBe(first[0]);
    expect(again).toEqual({ id: user.id, name: 'someone', role: 'user' });
    // A shorter or different list (another agent's request) is made fresh where it differs.
    const other = userMsg('other');
    expect(from.of([other, renamed]).map((ref) => ref.id)).toEqual([other.id, user.id]);
  });
});
