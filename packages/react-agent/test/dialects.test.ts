import { readdirSync, readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { ChatResponseAccumulator, type Msg, Toolkit, textOf, tool, userMsg } from '@rxagent/core';
import { OpenAIChatModel, ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answerSse, type FaultServer, startFaultServer } from './faults/faultServer.js';

const dir = new URL('./fixtures/dialects/', import.meta.url);
const expected = JSON.parse(readFileSync(new URL('expected.json', dir), 'utf8')) as Record<
  string,
  {
    text: string;
    thinking: string;
    reasoningField?: string;
    reasoningDetails?: object[];
    toolCalls: { id: string; name: string; arguments: string; extraContent?: object }[];
    finishReason: string;
    usage?: object;
  }
>;
const files = readdirSync(dir).filter((name) => name.endsWith('.sse') || name.endsWith('.json'));
const fixtures = files.filter((name) => name !== 'expected.json');

let server: FaultServer | undefined;

/** A small seeded PRNG (mulberry32): the same file always splits the same way. */
function seeded(text: string): () => number {
  let state = 0;
  for (const char of text) state = (Math.imul(state, 31) + char.charCodeAt(0)) | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Writes `body` in writes of 1 to 16 bytes, each after the previous one was flushed, with
 * a cut inside every multi-byte UTF-8 character besides; returns how many writes end
 * inside a character.
 */
function trickle(res: ServerResponse, body: Buffer, random: () => number): number {
  const cutSet = new Set<number>();
  for (let at = 0; at < body.length; ) {
    at = Math.min(body.length, at + 1 + Math.floor(random() * 16));
    cutSet.add(at);
  }
  // A lead byte (11xxxxxx) starts a multi-byte character: cut right after it.
  body.forEach((byte, at) => {
    if ((byte & 0xc0) === 0xc0) cutSet.add(at + 1);
  });
  const cuts = [...cutSet].sort((a, b) => a - b);
  let from = 0;
  const next = (i: number): void => {
    const to = cuts[i];
    if (to === undefined) {
      res.end();
      return;
    }
    const part = body.subarray(from, to);
    from = to;
    res.write(part, () => next(i + 1));
  };
  next(0);
  // A continuation byte (10xxxxxx) right after a cut means the cut split a character.
  return cuts.filter((cut) => cut < body.length && ((body[cut] ?? 0) & 0xc0) === 0x80).length;
}

function answerJson(res: ServerResponse, text: string): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      id: 'c',
      object: 'chat.completion',
      created: 1,
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
    }),
  );
}

/** Serves `file` (trickled) for the first request and a plain "Done." after. */
async function serveFixture(file: string) {
  const body = readFileSync(new URL(file, dir));
  const streamed = file.endsWith('.sse');
  const state = { midCharSplits: 0, bodies: [] as string[] };
  server = await startFaultServer((_req, res, _n, requestBody) => {
    state.bodies.push(requestBody);
    if (state.bodies.length > 1) {
      if (streamed) answerSse(res, 'Done.');
      else answerJson(res, 'Done.');
      return;
    }
    res.writeHead(200, { 'content-type': streamed ? 'text/event-stream' : 'application/json' });
    state.midCharSplits = trickle(res, body, seeded(file));
  });
  const model = new OpenAIChatModel({
    model: 'dialect-model',
    baseURL: server.baseURL,
    apiKey: 'k',
    stream: streamed,
    maxRetries: 0,
    timeoutMs: 5_000,
  });
  const hasMultiByte = body.some((byte) => byte >= 0x80);
  return { model, state, hasMultiByte };
}

const tools = [
  tool({
    name: 'get_weather',
    description: 'Weather of a city.',
    parameters: z.object({ city: z.string() }),
    execute: ({ city }) => `Mild in ${city}`,
  }),
  tool({
    name: 'get_time',
    description: 'Local time of a city.',
    parameters: z.object({ city: z.string() }),
    execute: ({ city }) => `Noon in ${city}`,
  }),
];

describe('OpenAIChatModel on recorded Chat Completions dialects', () => {
  it('has an expectation for every fixture', () => {
    expect(fixtures.sort()).toEqual(Object.keys(expected).sort());
  });

  it.each(fixtures)('parses %s delivered in small random writes', async (file) => {
    const { model, state, hasMultiByte } = await serveFixture(file);
    const chunks = await lastValueFrom(
      model.stream({ messages: [{ role: 'user', content: 'go' }] }).pipe(toArray()),
    );
    const accumulator = new ChatResponseAccumulator();
    for (const chunk of chunks) accumulator.add(chunk);
    const { text, thinking, toolCalls, finishReason, usage, reasoningField, reasoningDetails } =
      accumulator.response();
    expect({
      text,
      thinking,
      ...(reasoningField && { reasoningField }),
      ...(reasoningDetails && { reasoningDetails }),
      toolCalls,
      finishReason,
      ...(usage && { usage }),
    }).toEqual(expected[file]);
    if (hasMultiByte) expect(state.midCharSplits).toBeGreaterThan(0);
  });

  it.each(fixtures)('runs one ReActAgent turn on %s', async (file) => {
    const want = expected[file]!;
    const { model, state } = await serveFixture(file);
    const agent = new ReActAgent({
      name: 'assistant',
      sysPrompt: 'Be brief.',
      model,
      toolkit: new Toolkit(tools),
    });
    const reply: Msg = await lastValueFrom(agent.call(userMsg('go')));
    if (want.toolCalls.length > 0) {
      expect(textOf(reply)).toBe('Done.');
      const sent = JSON.parse(state.bodies[1] ?? '{}') as {
        messages: {
          role: string;
          tool_call_id?: string;
          content?: unknown;
          tool_calls?: { extra_content?: unknown }[];
          [field: string]: unknown;
        }[];
      };
      // What the server sent with the reply goes back on it, in the same fields.
      const assistant = sent.messages.find((m) => m.role === 'assistant')!;
      if (want.reasoningField) expect(assistant[want.reasoningField]).toBe(want.thinking);
      for (const field of ['reasoning_content', 'reasoning'].filter(
        (f) => f !== want.reasoningField,
      ))
        expect(assistant[field]).toBeUndefined();
      expect(assistant['reasoning_details']).toEqual(want.reasoningDetails);
      expect(assistant.tool_calls?.map((call) => call.extra_content)).toEqual(
        want.toolCalls.map((call) => call.extraContent),
      );
      const results = sent.messages.filter((m) => m.role === 'tool');
      expect(results.map((m) => m.tool_call_id)).toEqual(want.toolCalls.map((call) => call.id));
      // The tools ran on the parsed arguments (an unknown tool or bad JSON would say so).
      for (const [i, call] of want.toolCalls.entries()) {
        const city = (JSON.parse(call.arguments) as { city: string }).city;
        expect(JSON.stringify(results[i]?.content)).toContain(city);
        expect(JSON.stringify(results[i]?.content)).toMatch(/Mild in|Noon in/);
      }
    } else {
      expect(state.bodies).toHaveLength(1);
      expect(textOf(reply)).toBe(want.text);
      if (want.thinking) {
        expect(reply.content).toContainEqual({
          type: 'thinking',
          thinking: want.thinking,
          ...(want.reasoningField && { provider: { reasoningField: want.reasoningField } }),
        });
      }
      if (want.finishReason !== 'stop') {
        expect(reply.metadata['finishReason']).toBe(want.finishReason);
      }
    }
  });
});
