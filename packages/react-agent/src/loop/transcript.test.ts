import {
  createMsg,
  InMemoryMemory,
  type Msg,
  type ToolResultBlock,
  type ToolUseBlock,
  textOf,
  toolResults,
  userMsg,
} from '@rxagent/core';
import { describe, expect, it } from 'vitest';
import { Transcript } from './transcript.js';

const call = (id: string): ToolUseBlock => ({ type: 'tool_use', id, name: 'f', input: {} });
const ok = (id: string): ToolResultBlock => ({
  type: 'tool_result',
  id,
  name: 'f',
  output: `ok ${id}`,
});
const reply = (...ids: string[]) =>
  createMsg({ name: 'bot', role: 'assistant', content: ids.map(call) });
const resultMsg = (id: string) => createMsg({ name: 'bot', role: 'tool', content: [ok(id)] });

/** The stored tool results as `id:output[:kind]`, in memory order. */
function storedResults(memory: InMemoryMemory): string[] {
  return memory
    .messages()
    .filter((msg) => msg.role === 'tool')
    .map((msg) => {
      const result = toolResults(msg)[0]!;
      const kind = msg.metadata['resultKind'];
      return [result.id, result.output, ...(kind === undefined ? [] : [kind])].join(':');
    });
}

/** A transcript over a memory holding a user message and a reply calling `ids`. */
function withOpenCalls(...ids: string[]) {
  const memory = new InMemoryMemory([userMsg('go'), reply(...ids)]);
  return { memory, transcript: new Transcript(memory, 'bot') };
}

describe('Transcript', () => {
  it('finds the calls left open in memory when it is made', () => {
    const memory = new InMemoryMemory([
      userMsg('go'),
      createMsg({
        name: 'bot',
        role: 'assistant',
        content: [call('1'), call('2')],
        metadata: { invalidToolArguments: { '2': '{oops' } },
      }),
      resultMsg('1'),
    ]);
    const transcript = new Transcript(memory, 'bot');
    expect(transcript.openCalls.map((c) => c.id)).toEqual(['2']);
    expect(transcript.invalidArguments).toEqual({ '2': '{oops' });
  });

  it('stores tool results in call order whatever order they settle in', () => {
    const { memory, transcript } = withOpenCalls('1', '2', '3');

    transcript.settle(call('3'), ok('3'));
    transcript.settle(call('2'), ok('2'));
    expect(storedResults(memory)).toEqual([]);
    expect(transcript.openCalls.map((c) => c.id)).toEqual(['1', '2', '3']);

    transcript.settle(call('1'), ok('1'));
    expect(storedResults(memory)).toEqual(['1:ok 1', '2:ok 2', '3:ok 3']);
    expect(transcript.openCalls).toEqual([]);
  });

  it('stores a result at once when every earlier call has its result', () => {
    const { memory, transcript } = withOpenCalls('1', '2');
    const msg = transcript.settle(call('1'), ok('1'), 'duplicate');
    expect(storedResults(memory)).toEqual(['1:ok 1:duplicate']);
    expect(memory.messages().at(-1)).toBe(msg);
    expect(msg.metadata).toEqual({ resultKind: 'duplicate' });
  });

  it('returns the Msg of a result for a call that is not open, without storing it', () => {
    const { memory, transcript } = withOpenCalls('1');
    const msg = transcript.settle(call('9'), ok('9'));
    expect(toolResults(msg)[0]?.id).toBe('9');
    expect(storedResults(memory)).toEqual([]);
  });

  it('seal() stores the settled results still waiting, then [interrupted] ones, in call order', () => {
    const { memory, transcript } = withOpenCalls('1', '2', '3');
    transcript.settle(call('2'), ok('2'));

    transcript.seal();

    const stored = memory.messages().filter((msg) => msg.role === 'tool');
    expect(stored.map((msg) => toolResults(msg)[0]?.id)).toEqual(['1', '2', '3']);
    expect(stored.map((msg) => msg.metadata['resultKind'])).toEqual([
      'interrupted',
      undefined,
      'interrupted',
    ]);
    expect(toolResults(stored[0]!)[0]).toMatchObject({
      isError: true,
      output: expect.stringContaining('[interrupted]'),
    });
    expect(transcript.openCalls).toEqual([]);
  });

  it('seal() is idempotent', () => {
    const { memory, transcript } = withOpenCalls('1', '2');
    transcript.seal();
    const after = memory.messages().length;
    transcript.seal();
    expect(memory.messages()).toHaveLength(after);
    expect(storedResults(memory)).toHaveLength(2);
  });

  it('close() gives each call an error result with the text and kind given, in order', () => {
    const { memory, transcript } = withOpenCalls('1', '2', '3');
    transcript.close([call('2'), call('3')], (c) => `not run: ${c.id}`, 'not_executed');
    expect(storedResults(memory)).toEqual([]);
    transcript.close([call('1')], () => 'cancelled', 'cancelled');
    expect(storedResults(memory)).toEqual([
      '1:cancelled:cancelled',
      '2:not run: 2:not_executed',
      '3:not run: 3:not_executed',
    ]);
    const stored = memory.messages().filter((msg) => msg.role === 'tool');
    expect(stored.every((msg) => toolResults(msg)[0]?.isError === true)).toBe(true);
  });

  it('add() of a reply with tool calls opens them; of a tool-result Msg closes its calls', () => {
    const memory = new InMemoryMemory([userMsg('go')]);
    const transcript = new Transcript(memory, 'bot');
    transcript.add(
      createMsg({
        name: 'bot',
        role: 'assistant',
        content: [call('a'), call('b')],
        metadata: { invalidToolArguments: { b: '[1]' } },
      }),
    );
    expect(transcript.openCalls.map((c) => c.id)).toEqual(['a', 'b']);
    expect(transcript.invalidArguments).toEqual({ b: '[1]' });

    transcript.add([resultMsg('a')]);
    expect(transcript.openCalls.map((c) => c.id)).toEqual(['b']);
    expect(memory.messages()).toHaveLength(3);
  });

  it('add() of a new tool-calling reply drops the results still waiting for the old calls', () => {
    const { memory, transcript } = withOpenCalls('1', '2');
    transcript.settle(call('2'), ok('2'));
    transcript.add(reply('3'));
    transcript.seal();
    expect(storedResults(memory)).toEqual([
      '3:[interrupted] Tool "f" was interrupted before it finished.:interrupted',
    ]);
  });

  it('add() of nothing stores nothing', () => {
    const { memory, transcript } = withOpenCalls('1');
    transcript.add([]);
    expect(memory.messages()).toHaveLength(2);
  });

  it('replace() and delete() find the open calls again', () => {
    const { memory, transcript } = withOpenCalls('1');
    transcript.settle(call('1'), ok('1'));
    expect(transcript.openCalls).toEqual([]);

    const calling = reply('7', '8');
    transcript.replace([userMsg('summary'), calling, resultMsg('7')]);
    expect(transcript.openCalls.map((c) => c.id)).toEqual(['8']);

    const answer = memory.messages().at(-1)!;
    transcript.delete([answer.id]);
    expect(transcript.openCalls.map((c) => c.id)).toEqual(['7', '8']);

    transcript.delete([calling.id]);
    expect(transcript.openCalls).toEqual([]);
  });

  it('addPartial() stores the text of a cut reply marked partial, and nothing for empty text', () => {
    const memory = new InMemoryMemory();
    const transcript = new Transcript(memory, 'bot');
    transcript.addPartial('r1', '');
    expect(memory.messages()).toEqual([]);

    transcript.addPartial('r1', 'half a sent');
    const [stored] = memory.messages();
    expect(stored).toMatchObject({
      id: 'r1',
      name: 'bot',
      role: 'assistant',
      metadata: { partial: true },
    });
    expect(textOf(stored!)).toBe('half a sent');
  });

  it("addUserWords() stores a user Msg as it is and another role's text and images as the user's", () => {
    const memory = new InMemoryMemory();
    const transcript = new Transcript(memory, 'bot');
    const user = userMsg('stop please');
    transcript.addUserWords(user);
    const other: Msg = createMsg({
      name: 'boss',
      role: 'assistant',
      content: [
        { type: 'text', text: 'use the cache' },
        { type: 'image', url: 'https://example.test/a.png' },
        call('x'),
      ],
    });
    transcript.addUserWords(other);

    const [first, second] = memory.messages();
    expect(first).toBe(user);
    expect(second?.role).toBe('user');
    expect(second?.content.map((block) => block.type)).toEqual(['text', 'image']);
    expect(transcript.openCalls).toEqual([]);
  });

  it('messages() is the conversation in memory', () => {
    const { memory, transcript } = withOpenCalls('1');
    expect(transcript.messages()).toEqual(memory.messages());
  });
});

describe('Transcript task (what the call works on)', () => {
  it("is the call's input plus every steered message, in order", () => {
    const memory = new InMemoryMemory();
    memory.add(userMsg('an earlier turn'));
    const transcript = new Transcript(memory, 'a');
    const question = userMsg('the question');
    const steered = userMsg('and one more thing');
    transcript.addInput([question]);
    transcript.add(createMsg({ name: 'a', role: 'assistant', content: 'working' }));
    transcript.addSteered(steered);
    expect(transcript.taskIds()).toEqual([question.id, steered.id]);
    expect(transcript.task().map(textOf)).toEqual(['the question', 'and one more thing']);
  });

  it('for a call without input (a resume), is the latest user message and what was steered since', () => {
    const memory = new InMemoryMemory();
    const asked = userMsg('the question');
    memory.add([asked, createMsg({ name: 'system', role: 'user', content: '[Judge feedback] x' })]);
    const transcript = new Transcript(memory, 'a');
    expect(transcript.taskIds()).toEqual([asked.id]);
    const steered = userMsg('also this');
    transcript.addSteered(steered);
    expect(transcript.task().map(textOf)).toEqual(['the question', 'also this']);
  });
});
