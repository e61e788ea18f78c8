import {
  IN_DOUBT_OUTPUT,
  type JsonValue,
  type Msg,
  type StepJournal,
  Toolkit,
  textOf,
  tool,
} from '@rxagent/core';
import { ScriptedChatModel } from '@rxagent/core/testing';
import { ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

/**
 * A journal like a durable engine's: steps recorded in order; a new attempt (`retry`) replays
 * recorded steps by position and name, and fails on a step issued under another name.
 */
class MemoryJournal implements StepJournal {
  readonly records: { name: string; value: JsonValue }[] = [];
  #position = 0;

  async step<T extends JsonValue>(name: string, run: () => Promise<T>): Promise<T> {
    const index = this.#position++;
    const recorded = this.records[index];
    if (recorded !== undefined) {
      if (recorded.name !== name)
        throw new Error(`journal mismatch at ${index}: ${recorded.name} != ${name}`);
      return recorded.value as T;
    }
    // The slot is taken when the step is issued (as an engine's journal entry is), filled when it ends.
    const record: { name: string; value: JsonValue } = { name, value: null };
    this.records[index] = record;
    record.value = await run();
    return record.value as T;
  }

  /** A new attempt of the same call, keeping the first `kept` records (a crash after them). */
  retry(kept: number): void {
    this.records.splice(kept);
    this.#position = 0;
  }
}

function setup(idempotent: boolean) {
  let runs = 0;
  const book = tool({
    name: 'book',
    description: 'Books a room.',
    parameters: z.object({ room: z.string() }),
    idempotent,
    execute: async ({ room }) => {
      runs += 1;
      return `booked ${room}`;
    },
  });
  const script = [
    { toolCalls: [{ id: 'call_1', name: 'book', arguments: { room: '1' } }] },
    'Done.',
  ];
  // The first attempt asks twice; a retry after the tool asks once more.
  const model = new ScriptedChatModel([...script, 'Done.']);
  const agent = () =>
    new ReActAgent({ name: 'booker', sysPrompt: 'Book.', model, toolkit: new Toolkit([book]) });
  return { agent, model, runs: () => runs };
}

const toolMsg = (reply: Msg, agent: ReActAgent) =>
  agent.memory.messages().find((msg) => msg.role === 'tool') ?? reply;

describe('ReActAgent under a StepJournal', () => {
  it('journals each model request and tool run as named steps, in order', async () => {
    const { agent } = setup(false);
    const journal = new MemoryJournal();
    const reply = await lastValueFrom(agent().call('Book room 1.', { journal }));
    expect(textOf(reply)).toBe('Done.');
    expect(journal.records.map((record) => record.name)).toEqual([
      'model',
      'tool started book call_1',
      'tool book call_1',
      'model',
    ]);
  });

  it('replays recorded steps on a retry: no model request, no tool run', async () => {
    const { agent, model, runs } = setup(false);
    const journal = new MemoryJournal();
    await lastValueFrom(agent().call('Book room 1.', { journal }));
    const requests = model.requests.length;
    journal.retry(journal.records.length);
    const reply = await lastValueFrom(agent().call('Book room 1.', { journal }));
    expect(textOf(reply)).toBe('Done.');
    expect(model.requests.length).toBe(requests);
    expect(runs()).toBe(1);
  });

  it('gives a non-idempotent tool that started without a result the in-doubt result, without running it', async () => {
    const { agent, runs } = setup(false);
    const journal = new MemoryJournal();
    await lastValueFrom(agent().call('Book room 1.', { journal }));
    journal.retry(2); // the model step and the started marker: the crash came mid-tool
    const retried = agent();
    const reply = await lastValueFrom(retried.call('Book room 1.', { journal }));
    expect(runs()).toBe(1);
    const result = toolMsg(reply, retried);
    expect(result.content[0]).toMatchObject({ output: IN_DOUBT_OUTPUT, isError: true });
    expect(result.metadata['resultKind']).toBe('in_doubt');
  });

  it('runs an idempotent tool in doubt again (its run is one step: no marker)', async () => {
    const { agent, runs } = setup(true);
    const journal = new MemoryJournal();
    await lastValueFrom(agent().call('Book room 1.', { journal }));
    expect(journal.records.map((record) => record.name)).toEqual([
      'model',
      'tool book call_1',
      'model',
    ]);
    journal.retry(1);
    const retried = agent();
    await lastValueFrom(retried.call('Book room 1.', { journal }));
    expect(runs()).toBe(2);
    expect(toolMsg(retried.memory.messages()[0]!, retried).metadata['resultKind']).toBeUndefined();
  });

  it('replays a failed model request as a ModelError without asking again', async () => {
    const model = new ScriptedChatModel([{ error: { status: 400, message: 'bad request' } }]);
    const journal = new MemoryJournal();
    const make = () => new ReActAgent({ name: 'a', sysPrompt: 'x', model });
    await expect(lastValueFrom(make().call('hi', { journal }))).rejects.toThrow(/bad request/);
    journal.retry(journal.records.length);
    await expect(lastValueFrom(make().call('hi', { journal }))).rejects.toMatchObject({
      name: 'ModelError',
    });
    expect(model.requests.length).toBe(1);
  });
});
