import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AgentEvent,
  CassetteMismatchError,
  type ChatModel,
  type Msg,
  Toolkit,
  tool,
  toolUses,
  userMsg,
} from '@rxagent/core';
import { recordModel, replayModel, startStrictOpenAIServer } from '@rxagent/core/testing';
import { OpenAIChatModel, ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

const API_KEY = 'sk-proj-recordreplaysecret0123456789abcdef';

const weather = tool({
  name: 'get_weather',
  description: 'Weather for a city.',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `${city}: 18 °C, light rain`,
});

function weatherAgent(model: ChatModel, sysPrompt = 'Use get_weather; be brief.'): ReActAgent {
  return new ReActAgent({ name: 'assistant', sysPrompt, model, toolkit: new Toolkit([weather]) });
}

/** The reply's text and every tool call the run made, in order. */
function summary(events: readonly AgentEvent[]): { reply: Msg; calls: unknown[] } {
  const calls = events.flatMap((event) =>
    event.type === 'postReasoning'
      ? toolUses(event.reply).map(({ id, name, input }) => ({ id, name, input }))
      : [],
  );
  const reply = events.at(-1);
  if (reply?.type !== 'reply') throw new Error('no reply');
  return { reply: reply.msg, calls };
}

describe('a cassette recorded from a real HTTP model', () => {
  let dir: string;
  let cassette: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rxagent-cassette-'));
    cassette = join(dir, 'weather.cassette.jsonl');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  async function record(): Promise<AgentEvent[]> {
    const server = await startStrictOpenAIServer({
      script: [
        {
          text: 'Checking.',
          toolCalls: [{ name: 'get_weather', arguments: { city: 'London' } }],
          usage: { inputTokens: 40, outputTokens: 9 },
        },
        {
          text: 'London: 18 °C with light rain; take an umbrella.',
          usage: { inputTokens: 70, outputTokens: 12 },
        },
      ],
    });
    try {
      const model = new OpenAIChatModel({
        baseURL: server.baseURL,
        apiKey: API_KEY,
        model: 'gpt-test',
      });
      const events = await lastValueFrom(
        weatherAgent(recordModel(model, cassette))
          .stream(userMsg('Weather in London?'))
          .pipe(toArray()),
      );
      // The key went over the wire, so the test would see it if the cassette kept headers.
      expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${API_KEY}`);
      return events;
    } finally {
      await server.close();
    }
  }

  it('replays offline with the same replies and tool calls', async () => {
    const recorded = summary(await record());
    const replayed = summary(
      await lastValueFrom(
        weatherAgent(replayModel(cassette)).stream(userMsg('Weather in London?')).pipe(toArray()),
      ),
    );
    expect(replayed.reply.content).toEqual(recorded.reply.content);
    expect(replayed.calls).toEqual(recorded.calls);
    expect(replayed.calls).toEqual([
      { id: expect.any(String), name: 'get_weather', input: { city: 'London' } },
    ]);
    expect(replayed.reply.metadata['usage']).toEqual(recorded.reply.metadata['usage']);
  });

  it('never writes the key or a header', async () => {
    await record();
    const text = await readFile(cassette, 'utf8');
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain('recordreplaysecret');
    expect(text.toLowerCase()).not.toContain('authorization');
    expect(text.toLowerCase()).not.toContain('bearer');
  });

  it('fails a changed request with the JSON path of the change', async () => {
    await record();
    const agent = weatherAgent(replayModel(cassette), 'Use get_weather; be very brief.');
    const error = await lastValueFrom(agent.call(userMsg('Weather in London?'))).catch(
      (e: unknown) => e,
    );
    const mismatch = error as CassetteMismatchError;
    expect(mismatch).toBeInstanceOf(CassetteMismatchError);
    expect(mismatch.details.path).toBe('messages[0].content');
    expect(mismatch.details.expected).toBe('"Use get_weather; be brief."');
    expect(mismatch.details.actual).toBe('"Use get_weather; be very brief."');
  });
});
