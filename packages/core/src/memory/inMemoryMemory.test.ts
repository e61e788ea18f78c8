import { describe, expect, it } from 'vitest';
import { StateError } from '../errors.js';
import type { JsonObject } from '../json.js';
import { assistantMsg, createMsg, type Msg, userMsg } from '../message/msg.js';
import { InMemoryMemory } from './inMemoryMemory.js';
import { StoreOnceMemory } from './storeOnceMemory.js';

function conversation(): Msg[] {
  return [
    userMsg('What is the weather?', { metadata: { source: 'cli' } }),
    assistantMsg(
      [
        {
          type: 'thinking',
          thinking: 'Need the tool.',
          signature: 'c2ln',
          provider: {
            reasoningField: 'reasoning',
            reasoningDetails: [{ type: 'reasoning.text', text: 'Need the tool.', index: 0 }],
          },
        },
        {
          type: 'tool_use',
          id: 't1',
          name: 'weather',
          input: { city: 'Oslo' },
          provider: { extraContent: { google: { thought_signature: 'AAA=' } } },
        },
      ],
      { metadata: { model: 'm1' } },
    ),
    createMsg({
      name: 'assistant',
      role: 'tool',
      content: [
        {
          type: 'tool_result',
          id: 't1',
          name: 'weather',
          output: [{ type: 'text', text: 'Sunny' }],
        },
        { type: 'tool_result', id: 't2', name: 'map', output: 'err', isError: true },
      ],
    }),
    assistantMsg([
      { type: 'text', text: 'Sunny.' },
      { type: 'image', url: 'data:image/png;base64,AA==' },
    ]),
  ];
}

function stateWith(mutate: (messages: JsonObject[]) => void): JsonObject {
  const state = JSON.parse(
    JSON.stringify(new InMemoryMemory(conversation()).stateDict()),
  ) as JsonObject;
  mutate(state['messages'] as JsonObject[]);
  return state;
}

describe('InMemoryMemory', () => {
  it('adds one message or several, in order', () => {
    const memory = new InMemoryMemory();
    const [a, b, c] = conversation();
    memory.add(a!);
    memory.add([b!, c!]);
    expect(memory.messages()).toEqual([a, b, c]);
    expect(memory.size).toBe(3);
  });

  it('returns the same frozen view until memory changes', () => {
    const memory = new InMemoryMemory(conversation());
    const view = memory.messages();
    expect(memory.messages()).toBe(view);
    expect(Object.isFrozen(view)).toBe(true);
    expect(() => (view as Msg[]).reverse()).toThrow(TypeError);
    memory.add(userMsg('more'));
    expect(memory.messages()).not.toBe(view);
    expect(view).toHaveLength(4);
    expect(memory.messages()).toHaveLength(5);
  });

  it('deletes by id and returns how many were removed', () => {
    const msgs = conversation();
    const memory = new InMemoryMemory(msgs);
    expect(memory.delete([msgs[0]!.id, msgs[2]!.id, 'missing'])).toBe(2);
    expect(memory.messages()).toEqual([msgs[1], msgs[3]]);
    expect(memory.delete(['missing'])).toBe(0);
  });

  it('replaces and clears the conversation', () => {
    const memory = new InMemoryMemory(conversation());
    const replacement = [userMsg('only')];
    memory.replace(replacement);
    replacement.push(userMsg('not stored'));
    expect(memory.size).toBe(1);
    memory.clear();
    expect(memory.messages()).toEqual([]);
    expect(memory.size).toBe(0);
  });

  it('saves a state that a fresh memory loads and saves byte-identically', () => {
    const saved = JSON.stringify(new InMemoryMemory(conversation()).stateDict());
    const fresh = new InMemoryMemory();
    fresh.loadStateDict(JSON.parse(saved) as JsonObject);
    expect(fresh.size).toBe(4);
    expect(JSON.stringify(fresh.stateDict())).toBe(saved);
    // Provider data to send back (reasoning, signatures) survives the round trip.
    expect(fresh.messages()[1]!.content).toEqual(conversation()[1]!.content);
  });

  it('deep-copies state in and out', () => {
    const memory = new InMemoryMemory(conversation());
    const state = memory.stateDict();
    const first = (state['messages'] as JsonObject[])[0]!;
    (first['metadata'] as JsonObject)['source'] = 'changed';
    expect(memory.messages()[0]?.metadata).toEqual({ source: 'cli' });
    const fresh = new InMemoryMemory();
    fresh.loadStateDict(state);
    first['name'] = 'changed later';
    expect(fresh.messages()[0]?.name).toBe('user');
  });

  it.each<[string, (messages: JsonObject[]) => void]>([
    ['messages[3].role', (m) => (m[3]!['role'] = 'robot')],
    ['messages[0].id', (m) => delete m[0]!['id']],
    ['messages[0].timestamp', (m) => (m[0]!['timestamp'] = 12)],
    ['messages[1].metadata', (m) => (m[1]!['metadata'] = [])],
    ['messages[1].content', (m) => (m[1]!['content'] = 'text')],
    [
      'messages[1].content[1].input',
      (m) => ((m[1]!['content'] as JsonObject[])[1]!['input'] = null),
    ],
    [
      'messages[2].content[0].output[0].type',
      (m) => ((m[2]!['content'] as JsonObject[])[0]!['output'] = [{ type: 'audio' }]),
    ],
    [
      'messages[2].content[1].isError',
      (m) => ((m[2]!['content'] as JsonObject[])[1]!['isError'] = 'yes'),
    ],
    [
      'messages[3].content[0].type',
      (m) => ((m[3]!['content'] as JsonObject[])[0]!['type'] = 'video'),
    ],
    ['messages[3].content[1].url', (m) => delete (m[3]!['content'] as JsonObject[])[1]!['url']],
    ['messages[2]', (m) => (m[2] = 'x' as unknown as JsonObject)],
    [
      'messages[1].content[0].signature',
      (m) => ((m[1]!['content'] as JsonObject[])[0]!['signature'] = 7),
    ],
    [
      'messages[1].content[0].provider',
      (m) => ((m[1]!['content'] as JsonObject[])[0]!['provider'] = 'reasoning'),
    ],
    [
      'messages[1].content[1].provider',
      (m) => ((m[1]!['content'] as JsonObject[])[1]!['provider'] = []),
    ],
  ])('rejects a state with a bad %s and keeps its messages', (path, mutate) => {
    const memory = new InMemoryMemory([userMsg('keep me')]);
    const state = stateWith(mutate);
    expect(() => memory.loadStateDict(state)).toThrow(StateError);
    try {
      memory.loadStateDict(state);
    } catch (error) {
      expect((error as StateError).path).toBe(path);
      expect((error as StateError).message).toContain(path);
    }
    expect(memory.messages().map((msg) => msg.content)).toEqual([
      [{ type: 'text', text: 'keep me' }],
    ]);
  });

  it.each<[JsonObject, string]>([
    [{ version: 2, messages: [] }, 'version'],
    [{ version: 1, messages: {} }, 'messages'],
  ])('rejects state %j at %s', (state, path) => {
    expect(() => new InMemoryMemory().loadStateDict(state)).toThrow(
      expect.objectContaining({ path }),
    );
  });
});

describe('InMemoryMemory duplicate ids', () => {
  it('stores a message delivered twice only once, and again after it was deleted', () => {
    const memory = new InMemoryMemory();
    const heard = userMsg('from the hub');

    memory.add(heard);
    memory.add([heard, userMsg('new')]);
    expect(memory.messages().map((m) => m.content)).toEqual([
      heard.content,
      [{ type: 'text', text: 'new' }],
    ]);

    memory.delete([heard.id]);
    memory.add(heard);
    expect(memory.messages().at(-1)).toBe(heard);
    expect(memory.size).toBe(2);
  });

  it('skips repeated ids in a long conversation as in a short one (scanned, then a Set)', () => {
    const memory = new InMemoryMemory();
    const msgs = Array.from({ length: 80 }, (_, i) => userMsg(`m${i}`));
    for (const [i, msg] of msgs.entries()) {
      memory.add(msg);
      // Each earlier message again, once memory is short, past 32 messages and long.
      if (i === 5 || i === 40 || i === 79) memory.add(msgs.slice(0, i + 1));
    }
    expect(memory.messages()).toEqual(msgs);

    expect(memory.delete([msgs[50]!.id, msgs[3]!.id])).toBe(2);
    memory.add([msgs[50]!, msgs[60]!]);
    expect(memory.size).toBe(79);
    expect(memory.messages().at(-1)).toBe(msgs[50]);

    memory.replace(msgs.slice(0, 40).concat(msgs.slice(0, 40)));
    expect(memory.messages()).toEqual(msgs.slice(0, 40));
    memory.clear();
    memory.add([msgs[0]!, msgs[0]!]);
    expect(memory.messages()).toEqual([msgs[0]]);
  });

  it('never changes a view it gave out: a change works on a copy', () => {
    const memory = new InMemoryMemory([userMsg('a')]);
    const first = memory.messages();
    memory.add([userMsg('b'), userMsg('c')]);
    const second = memory.messages();
    memory.delete([second[0]!.id]);
    memory.add(userMsg('d'));
    expect(first.map((msg) => msg.content)).toEqual([[{ type: 'text', text: 'a' }]]);
    expect(second).toHaveLength(3);
    expect(Object.isFrozen(second)).toBe(true);
    expect(memory.messages()).toHaveLength(3);
    expect(memory.messages()).not.toBe(second);
  });

  it('gives checkpoints its stored messages themselves, and stateDict() copies', () => {
    const first = userMsg('hi');
    const memory = new InMemoryMemory([first]);
    const checkpoint = memory.checkpointDict() as unknown as { messages: Msg[] };
    expect(checkpoint.messages[0]).toBe(first);
    expect(checkpoint).toEqual(memory.stateDict());
    expect((memory.stateDict() as unknown as { messages: Msg[] }).messages[0]).not.toBe(first);
    const wrapped = new StoreOnceMemory(memory);
    expect((wrapped.checkpointDict() as unknown as { messages: Msg[] }).messages[0]).toBe(first);
  });
});
