import { type MemoryStore, StateError } from '@rxagent/core';
import { describe, expect, it } from 'vitest';
import { ResultOffload } from './resultOffload.js';

const result = (output: string) =>
  ({ type: 'tool_result', id: 'c1', name: 'fetch', output }) as const;

describe('ResultOffload', () => {
  it('keeps the checkpoint snapshot while nothing changes, and takes a new one after', () => {
    const offload = new ResultOffload('a', { overChars: 10 });
    const before = offload.checkpointDict();
    expect(offload.checkpointDict()).toBe(before);
    offload.offload(result('x'.repeat(50)));
    const after = offload.checkpointDict();
    expect(after).not.toBe(before);
    expect(Object.values(after['texts'] as object)).toEqual(['x'.repeat(50)]);
    expect(offload.checkpointDict()).toBe(after);
  });

  it('rejects a malformed state with a StateError, changing nothing', () => {
    const offload = new ResultOffload('a', { overChars: 10 });
    const { offloaded } = offload.offload(result('y'.repeat(30)))!;
    expect(() => offload.loadStateDict({ version: 2, texts: {}, stored: [] })).toThrow(StateError);
    expect(() => offload.loadStateDict({ version: 1, texts: { h: 1 }, stored: [] })).toThrow(
      StateError,
    );
    return expect(offload.read(offloaded.handle, 25)).resolves.toBe('yyyyy');
  });

  it('keeps a text in the state when the store refuses it', async () => {
    const store = {
      put: () => Promise.reject(new Error('disk full')),
      get: () => Promise.resolve(undefined),
    } as unknown as MemoryStore;
    const offload = new ResultOffload('a', { overChars: 4, store });
    const { offloaded } = offload.offload(result('abcdefgh'))!;
    await new Promise((resolve) => setImmediate(resolve));
    expect(offload.stateDict()['texts']).toEqual({ [offloaded.handle]: 'abcdefgh' });
    await expect(offload.read(offloaded.handle, 4)).resolves.toBe('efgh');
  });

  it('offloads the text of a multi-part result and keeps its images after the notice', () => {
    const offload = new ResultOffload('a', { overChars: 5 });
    const block = {
      type: 'tool_result' as const,
      id: 'c2',
      name: 'shot',
      output: [
        { type: 'text' as const, text: 'hello' },
        { type: 'image' as const, url: 'data:image/png;base64,AA==' },
        { type: 'text' as const, text: 'world' },
      ],
    };
    const { result: shown, offloaded } = offload.offload(block)!;
    expect(offloaded.chars).toBe('hello\nworld'.length);
    const parts = shown.output as { type: string; text?: string }[];
    expect(parts[0]!.text!.startsWith('hello\n[… output offloaded: 11 characters')).toBe(true);
    expect(parts[1]!.type).toBe('image');
  });
});
