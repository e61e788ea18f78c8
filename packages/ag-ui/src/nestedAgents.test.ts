import { type Event, EventType } from '@ag-ui/core';
import { EventSchemas } from '@ag-ui/core/schemas';
import { Toolkit, tool, toolDecisions, userMsg } from '@rxagent/core';
import { ScriptedChatModel, type ScriptedReply } from '@rxagent/core/testing';
import { ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toAgUiEvents } from './toAgUiEvents.js';
import { toolDecisionsOf } from './toolDecisionsOf.js';

/** travel → booking (asTool), whose `book` tool needs approval. */
function agents(travel: ScriptedReply[], booking: ScriptedReply[]) {
  const booked: string[] = [];
  const book = tool({
    name: 'book',
    description: 'Books a flight.',
    parameters: z.object({ flight: z.string() }),
    needsApproval: true,
    execute: ({ flight }) => {
      booked.push(flight);
      return `booked ${flight}`;
    },
  });
  const sub = new ReActAgent({
    name: 'booking',
    description: 'Books flights.',
    sysPrompt: 'You book flights.',
    model: new ScriptedChatModel(booking),
    toolkit: new Toolkit([book]),
  });
  const parent = new ReActAgent({
    name: 'travel',
    sysPrompt: 'You plan trips.',
    model: new ScriptedChatModel(travel),
    toolkit: new Toolkit([sub.asTool({ name: 'ask_booking' })]),
  });
  return { parent, booked };
}

async function eventsOf(source: ReturnType<typeof toAgUiEvents>): Promise<Event[]> {
  const events = await lastValueFrom(source.pipe(toArray()));
  for (const event of events) EventSchemas.parse(event);
  return events;
}

const of = <T extends EventType>(events: readonly Event[], type: T) =>
  events.filter((e): e is Extract<Event, { type: T }> => e.type === type);

describe('toAgUiEvents with sub-agents (agent.asTool())', () => {
  it("brackets the sub-agent's events as a subagent run and names the nested call in the interrupt", async () => {
    const { parent, booked } = agents(
      [
        { toolCalls: [{ id: 't1', name: 'ask_booking', arguments: { request: 'Book AF1.' } }] },
        'You are booked on AF1.',
      ],
      [{ toolCalls: [{ id: 'b1', name: 'book', arguments: { flight: 'AF1' } }] }, 'Booked AF1.'],
    );

    const first = await eventsOf(
      toAgUiEvents(parent.stream(userMsg('Get me on AF1.')), { threadId: 't', runId: 'r1' }),
    );

    const [started] = of(first, EventType.SUBAGENT_STARTED);
    expect(started).toMatchObject({
      name: 'booking',
      description: 'Books flights.',
      parentToolCallId: 't1',
    });
    const runId = started!.subagentRunId;
    const nestedCall = of(first, EventType.TOOL_CALL_START).find((e) => e.toolCallName === 'book');
    expect(nestedCall).toMatchObject({ toolCallId: 'b1', subagentRunId: runId });
    expect(of(first, EventType.SUBAGENT_FINISHED)).toEqual([
      expect.objectContaining({
        subagentRunId: runId,
        outcome: { type: 'suspended', interruptIds: ['b1'] },
      }),
    ]);
    const finished = of(first, EventType.RUN_FINISHED)[0]!;
    expect(finished.outcome?.type).toBe('interrupt');
    const interrupts = finished.outcome?.type === 'interrupt' ? finished.outcome.interrupts : [];
    expect(interrupts).toEqual([
      expect.objectContaining({
        id: 'b1',
        toolCallId: 'b1',
        reason: 'tool_approval',
        subagentRunId: runId,
        metadata: { toolName: 'book', input: { flight: 'AF1' }, path: ['travel', 'booking'] },
      }),
    ]);
    expect(interrupts[0]?.message).toMatch(/book \(asked by travel › booking\)/);
    // The streamed agent's own events carry no subagentRunId.
    const parentCall = of(first, EventType.TOOL_CALL_START).find(
      (e) => e.toolCallName === 'ask_booking',
    );
    expect(parentCall?.subagentRunId).toBeUndefined();
    expect(booked).toEqual([]);

    // A client answers the interrupt by its id: the nested call runs.
    const decisions = toolDecisionsOf([
      { interruptId: 'b1', status: 'resolved', payload: { approved: true } },
    ]);
    const second = await eventsOf(
      toAgUiEvents(parent.stream(toolDecisions(decisions)), { threadId: 't', runId: 'r2' }),
    );

    expect(booked).toEqual(['AF1']);
    const resumed = of(second, EventType.SUBAGENT_STARTED)[0]!;
    expect(resumed.name).toBe('booking');
    const results = of(second, EventType.TOOL_CALL_RESULT).map((e) => [
      e.toolCallId,
      e.content,
      e.subagentRunId === resumed.subagentRunId,
    ]);
    expect(results).toEqual([
      ['b1', 'booked AF1', true],
      ['t1', 'Booked AF1.', false],
    ]);
    expect(of(second, EventType.SUBAGENT_FINISHED)[0]?.outcome).toEqual({ type: 'success' });
    expect(of(second, EventType.RUN_FINISHED)[0]?.outcome).toEqual({ type: 'success' });
  });
});
