import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../model/chatModel.js';
import { snapshotRequest } from './snapshotRequest.js';

describe('snapshotRequest', () => {
  it('copies messages, tools and options deeply, keeping the signal itself', () => {
    const signal = new AbortController().signal;
    const request: ChatRequest = {
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      tools: [
        {
          type: 'function',
          function: { name: 'f', description: 'F.', parameters: { type: 'object' } },
        },
      ],
      options: { stop: ['x'], extra: { nested: { deep: [1, { two: 2 }] } } },
      signal,
    };
    const copy = snapshotRequest(request);
    expect(copy).toEqual(request);
    expect(copy.signal).toBe(signal);
    expect(copy.messages[0]!.content).not.toBe(request.messages[0]!.content);
    expect(copy.tools![0]!.function.parameters).not.toBe(request.tools![0]!.function.parameters);
    expect(copy.options!.extra!.nested).not.toBe(request.options!.extra!.nested);
  });

  it('omits the signal when the request has none', () => {
    expect(Object.keys(snapshotRequest({ messages: [] }))).toEqual(['messages']);
  });

  it('copies non-plain values and cycles as structuredClone does', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const when = new Date(0);
    const copy = snapshotRequest({
      messages: [],
      options: { extra: { when, cyclic } as never },
    });
    const extra = copy.options!.extra as unknown as { when: Date; cyclic: typeof cyclic };
    expect(extra.when).toEqual(when);
    expect(extra.when).not.toBe(when);
    expect(extra.cyclic.name).toBe('loop');
    expect(extra.cyclic).not.toBe(cyclic);
  });

  it('throws, as structuredClone does, on a function in the data', () => {
    const request = { messages: [], options: { extra: { f: () => 1 } as never } };
    expect(() => snapshotRequest(request)).toThrow(/could not be cloned/);
  });
});

describe('snapshotRequest on frozen data', () => {
  it('keeps a deeply frozen structure as it is, and copies one with a mutable part', () => {
    const frozenTool = Object.freeze({
      type: 'function' as const,
      function: Object.freeze({
        name: 'f',
        description: 'F.',
        parameters: Object.freeze({ type: 'object', required: Object.freeze(['a']) as string[] }),
      }),
    });
    const mutableInside = Object.freeze({
      type: 'function' as const,
      function: { name: 'g', description: 'G.', parameters: { type: 'object' } },
    });
    const copy = snapshotRequest({ messages: [], tools: [frozenTool, mutableInside] });
    expect(copy.tools![0]).toBe(frozenTool);
    expect(copy.tools![1]).toEqual(mutableInside);
    expect(copy.tools![1]).not.toBe(mutableInside);
    expect(copy.tools![1]!.function).not.toBe(mutableInside.function);
  });
});
