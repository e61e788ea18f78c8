import {
  InvalidArgumentError,
  replyMetadata,
  StateError,
  textOf,
  toolResults,
  userMsg,
} from '@rxagent/core';
import { PLAN_TOOL_NAMES } from '@rxagent/react-agent';
import { describe, expect, it } from 'vitest';
import { harness, run, wireMessages } from './harness.js';

const call = (id: string, name: string, args: Record<string, unknown> = {}) => ({
  toolCalls: [{ id, name, arguments: args as never }],
});
const create = (id: string, subtasks: string[]) => call(id, 'create_plan', { subtasks });
const update = (id: string, index: unknown, state: string, outcome?: string) =>
  call(id, 'update_subtask', { index, state, ...(outcome !== undefined && { outcome }) });

/** The plan hint of a request: its last message when that is the framework's plan message. */
function planHint(server: Parameters<typeof wireMessages>[0], index: number): string | undefined {
  const last = wireMessages(server, index).at(-1)!;
  const text = String(last.content);
  return last.role === 'user' && last.name === 'system' && text.startsWith('Your current plan')
    ? text
    : undefined;
}

describe('ReActAgent plan: true', () => {
  it('adds the plan tools, shows the open plan before each reasoning step, never stores it', async () => {
    const { server, agent } = await harness(
      [
        create('p1', ['Look up the weather', 'Write the answer']),
        update('u1', 0, 'done', 'Sunny, 21°C'),
        update('u2', 1, 'in_progress'),
        call('f1', 'finish_plan'),
        'It is sunny.',
      ],
      { plan: true },
    );

    const reply = await run(agent, userMsg('Weather in Paris?'));

    const tools = (server.requests[0]!.body['tools'] as { function: { name: string } }[]).map(
      (t) => t.function.name,
    );
    expect(tools).toEqual([...PLAN_TOOL_NAMES]);
    expect(planHint(server, 0)).toBeUndefined(); // no plan yet
    expect(planHint(server, 1)).toBe(
      'Your current plan (update it with update_subtask as you work; call finish_plan when it is done):\n0. [todo] Look up the weather\n1. [todo] Write the answer',
    );
    expect(planHint(server, 2)).toContain('0. [done] Look up the weather — outcome: Sunny, 21°C');
    expect(planHint(server, 3)).toContain('1. [in_progress] Write the answer');
    expect(planHint(server, 4)).toBeUndefined(); // finished: no longer shown
    expect(agent.memory.messages().some((m) => m.metadata['feedback'] === 'plan')).toBe(false);
    expect(agent.memory.messages().some((m) => textOf(m).startsWith('Your current plan'))).toBe(
      false,
    );

    expect(textOf(reply)).toBe('It is sunny.');
    // finish_plan abandons what was still open.
    expect(replyMetadata(reply).generateReason).toBe('stop');
    expect(reply.metadata['plan']).toEqual({
      subtasks: [
        { description: 'Look up the weather', state: 'done', outcome: 'Sunny, 21°C' },
        { description: 'Write the answer', state: 'abandoned' },
      ],
      finished: true,
    });
    expect(agent.plan?.finished).toBe(true);
    const results = agent.memory.messages().flatMap(toolResults);
    expect(results.map((r) => r.isError ?? false)).toEqual([false, false, false, false]);
    expect(String(results[0]!.output)).toMatch(/^Plan created:\n0\. \[todo\]/);
  });

  it('answers bad plan calls with error results the model reads', async () => {
    const { server, agent } = await harness(
      [
        update('u0', 0, 'done'),
        create('p1', ['One', 'Two', 'Three']),
        update('u1', 5, 'done'),
        update('u2', 1, 'finished'),
        call('f0', 'finish_plan'),
        call('f1', 'finish_plan'),
        'Done.',
      ],
      { plan: true },
    );

    await run(agent, userMsg('Plan badly'));

    const results = agent.memory.messages().flatMap(toolResults);
    expect(results.map((r) => [r.name, r.isError ?? false])).toEqual([
      ['update_subtask', true],
      ['create_plan', false],
      ['update_subtask', true],
      ['update_subtask', true],
      ['finish_plan', false],
      ['finish_plan', true],
    ]);
    expect(String(results[0]!.output)).toMatch(/no open plan; make one with create_plan first/);
    expect(String(results[2]!.output)).toMatch(
      /index 5 is out of range: the plan's subtasks are numbered 0 to 2/,
    );
    expect(String(results[3]!.output)).toMatch(/state/);
    expect(String(results[3]!.output)).toMatch(/in_progress/);
    // The model read each error: every result went out with the next request.
    const sent = wireMessages(server, 6).filter((m) => m.role === 'tool');
    expect(sent).toHaveLength(6);
  });

  it('reminds once about open subtasks, then accepts the answer with metadata.plan', async () => {
    const { server, agent } = await harness(
      [
        create('p1', ['Find flights', 'Book hotel']),
        update('u1', 0, 'done', 'AF123'),
        'Flights found.',
        'Here is what I have.',
      ],
      { plan: true },
    );

    const reply = await run(agent, userMsg('Plan my trip'));

    expect(server.requests).toHaveLength(4);
    const reminders = agent.memory.messages().filter((m) => m.metadata['feedback'] === 'open_plan');
    expect(reminders).toHaveLength(1);
    expect(reminders[0]).toMatchObject({ name: 'system', role: 'user' });
    expect(textOf(reminders[0]!)).toMatch(
      /You answered while subtask 1 of your plan is still open\. .*update_subtask/,
    );
    // The fourth request saw the draft, the reminder, then the plan.
    const wire = wireMessages(server, 3);
    expect(wire.at(-3)).toEqual({ role: 'assistant', content: 'Flights found.' });
    expect(wire.at(-2)).toMatchObject({ role: 'user', name: 'system' });
    expect(planHint(server, 3)).toContain('1. [todo] Book hotel');

    expect(textOf(reply)).toBe('Here is what I have.');
    expect(replyMetadata(reply).generateReason).toBe('stop');
    expect(reply.metadata['plan']).toEqual({
      subtasks: [
        { description: 'Find flights', state: 'done', outcome: 'AF123' },
        { description: 'Book hotel', state: 'todo' },
      ],
      finished: false,
    });
  });

  it('keeps the plan in state, outside memory, across save and load', async () => {
    const first = await harness([create('p1', ['A', 'B']), update('u1', 0, 'done'), 'x', 'y'], {
      plan: true,
    });
    await run(first.agent, userMsg('Start'));
    const saved = JSON.parse(JSON.stringify(first.agent.stateDict()));
    expect(saved.plan).toEqual({
      plan: {
        subtasks: [
          { description: 'A', state: 'done' },
          { description: 'B', state: 'todo' },
        ],
        finished: false,
      },
    });
    expect(JSON.stringify(saved.memory)).not.toContain('Your current plan');

    const second = await harness(['Continuing.', 'Answering anyway.'], { plan: true });
    second.agent.loadStateDict(saved);
    expect(second.agent.plan).toEqual(first.agent.plan);
    const reply = await run(second.agent, userMsg('Go on'));
    expect(planHint(second.server, 0)).toContain('0. [done] A\n1. [todo] B');
    // A new call reminds again (the bound is one per call).
    expect(second.server.requests).toHaveLength(2);
    expect(textOf(reply)).toBe('Answering anyway.');
    expect(reply.metadata['plan']).toMatchObject({ finished: false });

    const bad = {
      ...saved,
      plan: { plan: { subtasks: [{ description: 'A', state: 'later' }], finished: false } },
    };
    const third = await harness([], { plan: true });
    let error: unknown;
    try {
      third.agent.loadStateDict(bad);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(StateError);
    expect((error as StateError).path).toMatch(/plan\.plan\.subtasks\.0\.state$/);
    expect(third.agent.plan).toBeUndefined();
  });

  it('rejects a plan option that is not a boolean', async () => {
    await expect(() => harness([], { plan: 'yes' as never })).rejects.toThrow(InvalidArgumentError);
    await expect(() => harness([], { plan: 'yes' as never })).rejects.toThrow(
      /plan must be a boolean/,
    );
  });
});
