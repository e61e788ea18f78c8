import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestScheduler } from 'rxjs/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatChunk, ChatModel, ChatRequest } from '../../model/chatModel.js';
import { readCassette } from './cassetteFile.js';
import { recordModel } from './recordModel.js';
import { replayModel } from './replayModel.js';

const request: ChatRequest = { messages: [{ role: 'user', content: 'Hi' }] };
const chunks: Record<string, ChatChunk> = {
  a: { text: 'Hel' },
  b: { text: 'lo' },
  c: { usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 }, finishReason: 'stop' },
};

describe('recordModel and replayModel (marbles)', () => {
  let dir: string;
  let path: string;
  let scheduler: TestScheduler;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rxagent-cassette-marbles-'));
    path = join(dir, 'c.jsonl');
    scheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('forwards the chunks as they come, and writes the exchange when it completes', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a-b-c|', chunks);
      const model: ChatModel = { modelName: 'm', stream: () => source };
      expectObservable(recordModel(model, path).stream(request)).toBe('-a-b-c|', chunks);
      expectSubscriptions(source.subscriptions).toBe('^-----!');
    });
    const [exchange] = readCassette(path);
    expect(exchange?.chunks).toEqual([chunks['a'], chunks['b'], chunks['c']]);
    expect(exchange?.usage).toEqual(chunks['c']?.usage);
  });

  it('unsubscribes from the model when unsubscribed, and records nothing', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a-b-c|', chunks);
      const model: ChatModel = { modelName: 'm', stream: () => source };
      expectObservable(recordModel(model, path).stream(request), '^--!').toBe('-a-', chunks);
      expectSubscriptions(source.subscriptions).toBe('^--!');
    });
    expect(() => readFileSync(path)).toThrow();
  });

  it('forwards an error after the chunks before it, and records both', () => {
    scheduler.run(({ cold, expectObservable }) => {
      const source = cold('-a-#', chunks, new Error('cut'));
      const model: ChatModel = { modelName: 'm', stream: () => source };
      expectObservable(recordModel(model, path).stream(request)).toBe(
        '-a-#',
        chunks,
        new Error('cut'),
      );
    });
    const [exchange] = readCassette(path);
    expect(exchange?.chunks).toEqual([chunks['a']]);
    expect(exchange?.error).toEqual({ message: 'cut' });
  });

  it('replays the recorded chunks synchronously, then completes', () => {
    scheduler.run(({ cold }) => {
      const model: ChatModel = { modelName: 'm', stream: () => cold('-a-b-c|', chunks) };
      recordModel(model, path).stream(request).subscribe();
    });
    scheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
    scheduler.run(({ expectObservable }) => {
      expectObservable(replayModel(path).stream(request)).toBe('(abc|)', chunks);
    });
  });
});
