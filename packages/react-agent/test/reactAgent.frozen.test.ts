import {
  type AgentEvent,
  type HookEvent,
  InMemorySession,
  type Msg,
  Toolkit,
  textOf,
  tool,
  toolUses,
  userMsg,
  withMetadata,
} from '@rxagent/core';
import { ScriptedChatModel, type ScriptedReply, unfrozenPath } from '@rxagent/core/testing';
import { ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

/** A tool whose input nests objects and arrays, so a shallow freeze would show. */
function tripTool(seen: unknown[] = []) {
  return tool({
    name: 'plan_trip',
    description: 'Plans a trip.',
    parameters: z.object({ trip: z.object({ cities: z.array(z.string()), by: z.string() }) }),
    execute: (args) => {
      seen.push(args);
      return `planned ${args.trip.cities.join(', ')} by ${args.trip.by}`;
    },
  });
}

const TOOL_TURN: ScriptedReply = {
  thinking: 'I should plan it.',
  text: 'Planning.',
  toolCalls: [
    { name: 'plan_trip', arguments: { trip: { cities: ['Paris', 'Rome'], by: 'train' } } },
  ],
};

function agentWith(script: ScriptedReply[], seen: unknown[] = []) {
  return new ReActAgent({
    name: 'planner',
    sysPrompt: 'Plan trips.',
    model: new ScriptedChatModel(script),
    toolkit: new Toolkit([tripTool(seen)]),
  });
}

/** Every Msg an event holds, by field name (`input[0]`, `reply`, `accumulated`, …). */
function msgsOf(event: HookEvent | AgentEvent): [string, unknown][] {
  const found: [string, unknown][] = [];
  for (const [key, value] of Object.entries(event)) {
    if (key === 'agent') continue;
    if (isMsg(value)) found.push([`${event.type}.${key}`, value]);
    if (Array.isArray(value))
      value.forEach((item, index) => {
        if (isMsg(item)) found.push([`${event.type}.${key}[${index}]`, item]);
      });
  }
  // A tool call hooks see is a block of the (frozen) reply.
  if (event.type === 'preActing' || event.type === 'postActing')
    found.push([`${event.type}.toolCall`, event.toolCall]);
  return found;
}

function isMsg(value: unknown): value is Msg {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as Msg).content) &&
    typeof (value as Msg).role === 'string'
  );
}

function unfrozen(entries: [string, unknown][]): string[] {
  return entries.flatMap(([path, value]) => {
    const found = unfrozenPath(value, path);
    return found === undefined ? [] : [found];
  });
}

describe('ReActAgent: every Msg it yields is deeply frozen', () => {
  it('in memory, in the reply and in every hook event of a run with tools', async () => {
    const agent = agentWith([TOOL_TURN, 'Booked: Paris, then Rome.']);
    const seen: [string, unknown][] = [];
    const types = new Set<string>();
    agent.addHook({
      onEvent: (event) => {
        types.add(event.type);
        seen.push(...msgsOf(event));
      },
    });

    const reply = await lastValueFrom(agent.call(userMsg('Plan Paris and Rome by train.')));

    expect(textOf(reply)).toBe('Booked: Paris, then Rome.');
    // The run went through every event that carries a Msg.
    for (const type of ['preCall', 'preReasoning', 'reasoningChunk', 'postReasoning'])
      expect(types).toContain(type);
    for (const type of ['preActing', 'postActing', 'postCall']) expect(types).toContain(type);
    expect(seen.length).toBeGreaterThan(10);
    expect(unfrozen(seen)).toEqual([]);
    expect(unfrozenPath(reply, 'reply')).toBeUndefined();
    const memory = agent.memory.messages();
    expect(memory.map((msg) => msg.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(unfrozen(memory.map((msg, index) => [`memory[${index}]`, msg]))).toEqual([]);
  });

  it('in every stream() event and its reply event', async () => {
    const agent = agentWith([TOOL_TURN, 'Booked.']);
    const events = await lastValueFrom(agent.stream(userMsg('Plan it.')).pipe(toArray()));

    const replyEvent = events.at(-1)!;
    expect(replyEvent.type).toBe('reply');
    const msgs = events.flatMap(msgsOf);
    expect(msgs.some(([path]) => path.startsWith('reasoningChunk.accumulated'))).toBe(true);
    expect(msgs.some(([path]) => path === 'reply.msg')).toBe(true);
    expect(unfrozen(msgs)).toEqual([]);
  });

  it('after a session save and load round trip', async () => {
    const first = agentWith([TOOL_TURN, 'Booked.']);
    await lastValueFrom(first.call(userMsg('Plan it.')));
    const session = new InMemorySession();
    await session.save('trip', first.stateDict());

    const second = agentWith(['Still booked.']);
    second.loadStateDict((await session.load('trip'))!);
    const restored = second.memory.messages();
    expect(restored.map((msg) => msg.id)).toEqual(first.memory.messages().map((msg) => msg.id));
    expect(unfrozen(restored.map((msg, index) => [`restored[${index}]`, msg]))).toEqual([]);

    const reply = await lastValueFrom(second.call(userMsg('And now?')));
    expect(unfrozenPath(reply, 'reply')).toBeUndefined();
    expect(toolUses(restored[1]!)[0]?.input).toEqual({
      trip: { cities: ['Paris', 'Rome'], by: 'train' },
    });
  });
});

describe('hooks change what flows by assigning, never by mutating', () => {
  it('a hook that mutates a Msg fails the call with a TypeError', async () => {
    const agent = agentWith(['Hello.']);
    agent.addHook({
      events: ['postReasoning'],
      onEvent: (event) => {
        if (event.type !== 'postReasoning') return;
        (event.reply.metadata as Record<string, unknown>)['reviewed'] = true;
      },
    });
    await expect(lastValueFrom(agent.call(userMsg('hi')))).rejects.toThrow(TypeError);
  });

  it('a hook that mutates a tool call input fails the call with a TypeError', async () => {
    const agent = agentWith([TOOL_TURN, 'Booked.']);
    agent.addHook({
      events: ['preActing'],
      onEvent: (event) => {
        if (event.type !== 'preActing') return;
        (event.toolCall.input['trip'] as { by: string }).by = 'plane';
      },
    });
    await expect(lastValueFrom(agent.call(userMsg('Plan it.')))).rejects.toThrow(TypeError);
  });

  it('a hook that assigns new values changes the reply, the tool input and memory', async () => {
    const ran: unknown[] = [];
    const agent = agentWith([TOOL_TURN, 'Booked.'], ran);
    agent.addHook({
      events: ['preActing', 'postReasoning'],
      onEvent: (event) => {
        if (event.type === 'preActing') {
          const trip = event.toolCall.input['trip'] as { cities: string[] };
          event.toolCall = { ...event.toolCall, input: { trip: { ...trip, by: 'plane' } } };
        } else if (event.type === 'postReasoning') {
          event.reply = withMetadata(event.reply, { reviewed: true });
        }
      },
    });

    const reply = await lastValueFrom(agent.call(userMsg('Plan it.')));

    expect(ran).toEqual([{ trip: { cities: ['Paris', 'Rome'], by: 'plane' } }]);
    expect(reply.metadata['reviewed']).toBe(true);
    const stored = agent.memory.messages();
    expect(stored.filter((msg) => msg.metadata['reviewed'] === true)).toHaveLength(2);
    expect(unfrozen(stored.map((msg, index) => [`memory[${index}]`, msg]))).toEqual([]);
  });

  it('a reply a hook built by hand still reaches the caller frozen', async () => {
    const agent = agentWith(['Hello.']);
    agent.addHook({
      events: ['postCall'],
      onEvent: (event) => {
        if (event.type !== 'postCall') return;
        event.reply = { ...event.reply, content: [{ type: 'text', text: 'Hi there.' }] };
      },
    });
    const reply = await lastValueFrom(agent.call(userMsg('hi')));
    expect(textOf(reply)).toBe('Hi there.');
    expect(unfrozenPath(reply, 'reply')).toBeUndefined();
  });
});
