import { describe, expect, it } from 'vitest';
import { dropMarkerMsg, summaryMsg, withCompressionInfo } from '../context/compressedMsg.js';
import type { JsonObject } from '../json.js';
import { InMemoryMemory } from '../memory/inMemoryMemory.js';
import type { Memory } from '../memory/memory.js';
import { StoreOnceMemory } from '../memory/storeOnceMemory.js';
import { unfrozenPath } from '../testing/unfrozenPath.js';
import type { ContentBlock } from './contentBlock.js';
import { freezeMsg, freezeMsgs } from './freezeMsg.js';
import { assistantMsg, createMsg, type Msg, systemMsg, userMsg, withMetadata } from './msg.js';
import { toolDecisions } from './toolDecisions.js';

/** Blocks and metadata with nested JSON at every level a Msg can hold it. */
function parts(): { content: ContentBlock[]; metadata: JsonObject } {
  return {
    content: [
      { type: 'thinking', thinking: 'hm', provider: { reasoningDetails: [{ id: 'r1' }] } },
      { type: 'text', text: 'calling' },
      {
        type: 'tool_use',
        id: 'c1',
        name: 'book',
        input: { trip: { cities: ['Paris', { name: 'Rome' }] } },
        provider: { extraContent: { google: { sig: 'x' } } },
      },
      {
        type: 'tool_result',
        id: 'c1',
        name: 'book',
        output: [
          { type: 'text', text: 'ok' },
          { type: 'image', url: 'data:,' },
        ],
      },
    ],
    metadata: { usage: { inputTokens: 1, outputTokens: 2 }, tags: ['a', { deep: [1] }] },
  };
}

describe('Msg factories return deeply frozen Msgs', () => {
  const factories: [string, () => Msg][] = [
    ['createMsg', () => createMsg({ name: 'a', role: 'assistant', ...parts() })],
    ['createMsg (text)', () => createMsg({ name: 'a', role: 'user', content: 'hi' })],
    ['userMsg', () => userMsg('hi', { metadata: parts().metadata })],
    ['assistantMsg (blocks)', () => assistantMsg(parts().content, { metadata: parts().metadata })],
    ['assistantMsg (text)', () => assistantMsg('hi')],
    ['systemMsg', () => systemMsg('be brief', { metadata: parts().metadata })],
    ['withMetadata', () => withMetadata(userMsg('hi'), parts().metadata)],
    ['summaryMsg', () => summaryMsg('s', { count: 2, tokensBefore: 9, tokensAfter: 3 })],
    ['dropMarkerMsg', () => dropMarkerMsg({ count: 2, tokensBefore: 9, tokensAfter: 3 })],
    [
      'withCompressionInfo',
      () =>
        withCompressionInfo(summaryMsg('s', { count: 1, tokensBefore: 2, tokensAfter: 1 }), {
          count: 3,
          tokensBefore: 9,
          tokensAfter: 2,
        }),
    ],
    ['toolDecisions', () => toolDecisions({ approve: ['a'], edit: { b: { deep: { x: [1] } } } })],
  ];

  it.each(factories)('%s', (_name, make) => {
    const msg = make();
    expect(unfrozenPath(msg, 'msg')).toBeUndefined();
  });

  it('throws a TypeError on every kind of in-place change', () => {
    const msg = createMsg({ name: 'a', role: 'assistant', ...parts() });
    const loose = msg as unknown as {
      name: string;
      content: { text?: string; input?: { trip: { cities: unknown[] } } }[];
      metadata: Record<string, unknown>;
    };
    expect(() => {
      loose.name = 'b';
    }).toThrow(TypeError);
    expect(() => loose.content.push({ text: 'more' })).toThrow(TypeError);
    expect(() => {
      loose.content[1]!.text = 'changed';
    }).toThrow(TypeError);
    expect(() => loose.content[2]!.input!.trip.cities.push('Oslo')).toThrow(TypeError);
    expect(() => {
      loose.metadata['usage'] = null;
    }).toThrow(TypeError);
    expect(() => {
      (loose.metadata['tags'] as { deep: number[] }[])[1]!.deep[0] = 2;
    }).toThrow(TypeError);
  });

  it('freezes the blocks and metadata passed in, in place (no copy)', () => {
    const { content, metadata } = parts();
    const msg = assistantMsg(content, { metadata });
    expect(msg.content).toBe(content);
    expect(msg.metadata).toBe(metadata);
    expect(Object.isFrozen(content[2])).toBe(true);
  });

  it('withMetadata leaves the original as it was and reuses its frozen parts', () => {
    const original = assistantMsg(parts().content);
    const changed = withMetadata(original, { seen: true });
    expect(original.metadata).toEqual({});
    expect(changed.content).toBe(original.content);
    expect(changed.metadata).toEqual({ seen: true });
  });
});

describe('freezeMsg', () => {
  it('freezes a hand-built Msg deeply and returns it', () => {
    const { content, metadata } = parts();
    const msg: Msg = { id: 'm', name: 'a', role: 'assistant', content, metadata, timestamp: 't' };
    expect(freezeMsg(msg)).toBe(msg);
    expect(unfrozenPath(msg)).toBeUndefined();
  });

  it('does not walk into a subtree that is already frozen', () => {
    // A frozen block is trusted: its (deliberately) unfrozen input is left alone, which is
    // what keeps freezing a Msg made from another Msg's blocks O(its new objects).
    const input = { city: 'Paris' };
    const block = Object.freeze({ type: 'tool_use' as const, id: 'c', name: 't', input });
    freezeMsg(assistantMsg([block]));
    expect(Object.isFrozen(input)).toBe(false);
  });

  it('survives a cycle', () => {
    const metadata: JsonObject = {};
    metadata['self'] = metadata;
    const msg = freezeMsg({
      id: 'm',
      name: 'a',
      role: 'user',
      content: [],
      metadata,
      timestamp: 't',
    });
    expect(Object.isFrozen(msg.metadata)).toBe(true);
  });

  it('freezeMsgs freezes each Msg', () => {
    const msgs = [
      {
        id: 'a',
        name: 'u',
        role: 'user',
        content: [{ type: 'text', text: 'x' }],
        metadata: {},
        timestamp: 't',
      },
    ] as Msg[];
    expect(freezeMsgs(msgs)).toBe(msgs);
    expect(unfrozenPath(msgs[0])).toBeUndefined();
  });
});

describe('memory holds only frozen Msgs', () => {
  const handBuilt = (id: string): Msg =>
    ({
      id,
      name: 'u',
      role: 'user',
      content: [{ type: 'text', text: id }],
      metadata: { n: [1] },
      timestamp: 't',
    }) as Msg;

  it('InMemoryMemory freezes what it is given and what loadStateDict restores', () => {
    const memory = new InMemoryMemory();
    memory.add(handBuilt('a'));
    memory.add([handBuilt('b')]);
    const restored = new InMemoryMemory();
    restored.loadStateDict(memory.stateDict());
    for (const msg of [...memory.messages(), ...restored.messages()])
      expect(unfrozenPath(msg)).toBeUndefined();
    expect(restored.messages().map((msg) => msg.id)).toEqual(['a', 'b']);
  });

  it('StoreOnceMemory freezes what it hands a custom memory', () => {
    // A memory that stores what it is given as it is (no freezing of its own).
    let list: Msg[] = [];
    const custom: Memory = {
      add: (msgs) => {
        list = list.concat(msgs);
      },
      messages: () => list,
      delete: () => 0,
      replace: (msgs) => {
        list = [...msgs];
      },
      clear: () => {
        list = [];
      },
      get size() {
        return list.length;
      },
      stateDict: () => ({ messages: structuredClone(list) as unknown as JsonObject[] }),
      loadStateDict: (state) => {
        list = structuredClone(state['messages']) as unknown as Msg[];
      },
    };
    const memory = new StoreOnceMemory(custom);
    memory.add(handBuilt('a'));
    memory.add([handBuilt('b')]);
    memory.replace([...memory.messages(), handBuilt('c')]);
    expect(list.map((msg) => unfrozenPath(msg))).toEqual([undefined, undefined, undefined]);
    memory.loadStateDict({ messages: [handBuilt('d')] as unknown as JsonObject[] });
    expect(unfrozenPath(list[0])).toBeUndefined();
    expect(list[0]?.id).toBe('d');
  });
});

describe('unfrozenPath', () => {
  it('names the first object that is not frozen', () => {
    const msg = Object.freeze({ content: Object.freeze([Object.freeze({ input: { a: 1 } })]) });
    expect(unfrozenPath(msg, 'msg')).toBe('msg.content[0].input');
  });
});
