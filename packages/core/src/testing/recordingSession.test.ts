import { describe, expect, it } from 'vitest';
import { SEGMENT_SEPARATOR } from '../durable/segments.js';
import { InMemorySession } from '../state/inMemorySession.js';
import { RecordingSession } from './recordingSession.js';

const segment = `run${SEGMENT_SEPARATOR}memory.messages.0.abc`;

describe('RecordingSession', () => {
  it('records a snapshot at each head, not at each segment, and restores segments first', async () => {
    const session = new RecordingSession();
    await session.save(segment, { messages: ['a'] });
    await session.save('run', { format: 'head', step: 1 });
    await session.save('run', { format: 'head', step: 2 }, { expectedVersion: 1 });
    expect(session.saves).toEqual([
      { format: 'head', step: 1 },
      { format: 'head', step: 2 },
    ]);
    expect([...session.stores[0]!.keys()].sort()).toEqual(['run', segment].sort());

    const order: string[] = [];
    const into = new (class extends InMemorySession {
      override async save(key: string, state: Parameters<InMemorySession['save']>[1]) {
        order.push(key);
        await super.save(key, state);
      }
    })();
    await session.restoreInto(into, 0);
    expect(order).toEqual([segment, 'run']);
    expect(await into.load('run')).toEqual({ format: 'head', step: 1 });
  });

  it('names the save it does not have', async () => {
    const session = new RecordingSession();
    await expect(session.restoreInto(new InMemorySession(), 3)).rejects.toThrow(
      /no save 3; 0 were recorded/,
    );
  });
});
