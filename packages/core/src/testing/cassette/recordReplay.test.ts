import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, take, toArray } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CassetteMismatchError,
  InvalidArgumentError,
  ModelError,
  ScriptExhaustedError,
} from '../../errors.js';
import type { ChatChunk, ChatModel, ChatRequest } from '../../model/chatModel.js';
import { ScriptedChatModel } from '../scriptedChatModel.js';
import { readCassette } from './cassetteFile.js';
import { recordModel } from './recordModel.js';
import { replayModel } from './replayModel.js';

const weatherTool = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Weather',
    parameters: { type: 'object', properties: { city: { type: 'string' } } },
  },
};

function first(): ChatRequest {
  return {
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather in Paris?' },
    ],
    tools: [weatherTool],
    toolChoice: 'auto',
    options: { temperature: 0 },
  };
}

function second(): ChatRequest {
  return {
    messages: [
      ...first().messages,
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
        ],
      },
      { role: 'tool', content: 'sunny', tool_call_id: 'call_1' },
    ],
    tools: [weatherTool],
  };
}

const run = (model: ChatModel, request: ChatRequest): Promise<ChatChunk[]> =>
  lastValueFrom(model.stream(request).pipe(toArray()));

describe('recordModel and replayModel', () => {
  let dir: string;
  let path: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rxagent-cassette-'));
    path = join(dir, 'nested', 'weather.cassette.jsonl');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  async function recordTwo(): Promise<ChatChunk[][]> {
    const scripted = new ScriptedChatModel([
      { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] },
      'It is sunny in Paris.',
    ]);
    const recorder = recordModel(scripted, path);
    expect(recorder.modelName).toBe('scripted-model');
    return [await run(recorder, first()), await run(recorder, second())];
  }

  it('records each exchange as one JSON line and replays the same chunks', async () => {
    const recorded = await recordTwo();
    const lines = (await readFile(path, 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(2);
    const exchange = JSON.parse(lines[0]!);
    expect(exchange.version).toBe(1);
    expect(exchange.request).toEqual(first());
    expect(exchange.usage).toEqual(recorded[0]!.at(-1)!.usage);
    const replay = replayModel(path);
    expect(replay.modelName).toBe('scripted-model');
    expect(await run(replay, first())).toEqual(recorded[0]);
    expect(await run(replay, second())).toEqual(recorded[1]);
  });

  it('starts a fresh cassette when recording again, and appends in append mode', async () => {
    await recordTwo();
    await recordTwo();
    expect(readCassette(path)).toHaveLength(2);
    const more = recordModel(new ScriptedChatModel(['again']), path, { mode: 'append' });
    await run(more, first());
    expect(readCassette(path)).toHaveLength(3);
  });

  it('names the JSON path and both values of the first difference', async () => {
    await recordTwo();
    const replay = replayModel(path);
    const changed = first();
    changed.messages[1] = { role: 'user', content: 'Weather in Rome?' };
    const error = await run(replay, changed).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CassetteMismatchError);
    const mismatch = error as CassetteMismatchError;
    expect(mismatch.code).toBe('CASSETTE_MISMATCH');
    expect(mismatch.details).toMatchObject({
      exchange: 1,
      path: 'messages[1].content',
      expected: '"Weather in Paris?"',
      actual: '"Weather in Rome?"',
    });
    expect(mismatch.message).toContain('messages[1].content');
    expect(mismatch.message).toContain('"Weather in Paris?"');
    expect(mismatch.message).toContain('"Weather in Rome?"');
  });

  it('reports a missing or added field, and truncates long values', async () => {
    await recordTwo();
    const noTools = first();
    delete noTools.tools;
    const missing = (await run(replayModel(path), noTools).catch(
      (e: unknown) => e,
    )) as CassetteMismatchError;
    expect(missing.details.path).toBe('tools');
    expect(missing.details.actual).toBe('(nothing)');
    const long = first();
    long.options = { temperature: 0, seed: 7 };
    long.messages[0] = { role: 'system', content: 'x'.repeat(500) };
    const truncated = (await run(replayModel(path), long).catch(
      (e: unknown) => e,
    )) as CassetteMismatchError;
    expect(truncated.details.path).toBe('messages[0].content');
    expect(truncated.details.actual.length).toBeLessThanOrEqual(120);
    expect(truncated.details.actual.endsWith('…')).toBe(true);
  });

  it('answers interleaved requests in strict mode, and by position in order mode', async () => {
    await recordTwo();
    const strict = replayModel(path);
    const secondChunks = await run(strict, second());
    expect(secondChunks.map((c) => c.text ?? '').join('')).toBe('It is sunny in Paris.');
    expect((await run(strict, first())).some((c) => c.toolCalls)).toBe(true);
    const byOrder = replayModel(path, { match: 'order' });
    const answered = await run(byOrder, second());
    expect(answered.some((c) => c.toolCalls)).toBe(true);
  });

  it('errors with ScriptExhaustedError once every exchange is used', async () => {
    await recordTwo();
    const replay = replayModel(path, { match: 'order' });
    await run(replay, first());
    await run(replay, first());
    await expect(run(replay, first())).rejects.toBeInstanceOf(ScriptExhaustedError);
  });

  it('records a failed request and raises it again on replay', async () => {
    const failing = new ScriptedChatModel([{ error: { status: 429, message: 'slow down' } }]);
    const recorder = recordModel(failing, path);
    await expect(run(recorder, first())).rejects.toBeInstanceOf(ModelError);
    const error = (await run(replayModel(path), first()).catch((e: unknown) => e)) as ModelError;
    expect(error).toBeInstanceOf(ModelError);
    expect(error.status).toBe(429);
    expect(error.retryable).toBe(true);
    expect(error.message).toContain('slow down');
  });

  it('does not record a request cancelled before it ended', async () => {
    const slow = new ScriptedChatModel(
      ['one two three four', 'done'].map((text) => ({ text, chunkDelayMs: 5 })),
    );
    const recorder = recordModel(slow, path);
    await lastValueFrom(recorder.stream(first()).pipe(take(1)));
    await run(recorder, first());
    expect(readCassette(path).map((e) => e.chunks.map((c) => c.text ?? '').join(''))).toEqual([
      'done',
    ]);
  });

  it('redacts a key a provider echoes in its error message', async () => {
    const key = 'sk-proj-abcdefghijklmnopqrstuvwx1234';
    const failing = new ScriptedChatModel([
      { error: { status: 401, message: `Incorrect API key provided: ${key}` } },
    ]);
    await run(recordModel(failing, path), first()).catch(() => undefined);
    const text = await readFile(path, 'utf8');
    expect(text).not.toContain(key);
    expect(text).toContain('[REDACTED:api-key]');
  });

  it('rejects unknown options, a missing cassette and a line of another version', async () => {
    const model = new ScriptedChatModel([]);
    expect(() => recordModel(model, path, { mod: 'append' } as never)).toThrow(
      /unknown option "mod"/,
    );
    expect(() => replayModel(path, { matching: 'order' } as never)).toThrow(/unknown option/);
    expect(() => replayModel(join(dir, 'none.jsonl'))).toThrow(InvalidArgumentError);
    expect(() => replayModel(join(dir, 'none.jsonl'))).toThrow(/RECORD=1/);
    const bad = join(dir, 'bad.jsonl');
    await writeFile(bad, '{"version":2,"request":{},"chunks":[]}\n');
    expect(() => replayModel(bad)).toThrow(/line 1 has version 2/);
    await writeFile(bad, 'not json\n');
    expect(() => replayModel(bad)).toThrow(/line 1 is not valid JSON/);
  });
});
