import { afterEach, describe, expect, it } from 'vitest';
import type { JsonObject } from '../json.js';
import {
  type StrictOpenAIServer,
  type StrictServerDialect,
  startStrictOpenAIServer,
} from './strictOpenAIServer.js';

let server: StrictOpenAIServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const weatherTool = {
  type: 'function',
  function: { name: 'get_weather', parameters: { type: 'object' } },
};
const question = { role: 'user', content: 'Weather in Paris and Rome?' };

function post(body: JsonObject): Promise<Response> {
  return fetch(`${server!.baseURL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** The `data:` events of a streamed reply, parsed. */
async function streamed(messages: JsonObject[]): Promise<JsonObject[]> {
  const response = await post({ model: 'm', messages, tools: [weatherTool], stream: true });
  expect(response.status).toBe(200);
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((event) => event.startsWith('data: {'))
    .map((event) => JSON.parse(event.slice(6)) as JsonObject);
}

function deltas(events: JsonObject[]): Record<string, unknown>[] {
  return events.flatMap((event) =>
    (event['choices'] as { delta: Record<string, unknown> }[]).map((choice) => choice.delta),
  );
}

async function errorOf(response: Response): Promise<string> {
  expect(response.status).toBe(400);
  return ((await response.json()) as { error: { message: string } }).error.message;
}

const twoCalls = {
  toolCalls: [
    { id: 'call_p', name: 'get_weather', arguments: { city: 'Paris' } },
    { id: 'call_r', name: 'get_weather', arguments: { city: 'Rome' } },
  ],
};

/** A history answering the two calls, with `assistant` as the assistant message. */
function history(assistant: JsonObject): JsonObject[] {
  return [
    question,
    assistant,
    { role: 'tool', tool_call_id: 'call_p', content: 'Sunny' },
    { role: 'tool', tool_call_id: 'call_r', content: 'Rain' },
  ];
}

const calls = (extra?: JsonObject) => [
  {
    id: 'call_p',
    type: 'function',
    function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
    ...(extra && { extra_content: extra }),
  },
  {
    id: 'call_r',
    type: 'function',
    function: { name: 'get_weather', arguments: '{"city":"Rome"}' },
  },
];

describe('startStrictOpenAIServer dialects', () => {
  it('rejects an unknown dialect, naming the known ones', async () => {
    await expect(
      startStrictOpenAIServer({ dialect: 'anthropic' as StrictServerDialect }),
    ).rejects.toThrow(/unknown dialect "anthropic"; expected one of deepseek, gemini, openrouter/);
  });

  describe('deepseek', () => {
    it('streams reasoning_content (made up when the script has none) and rejects a tool-call turn sent back without it', async () => {
      server = await startStrictOpenAIServer({ dialect: 'deepseek', script: [twoCalls, 'Done.'] });
      const reasoning = deltas(await streamed([question]))
        .map((delta) => delta['reasoning_content'])
        .filter((piece) => typeof piece === 'string')
        .join('');
      expect(reasoning).toBe('Reply 1: I think before I answer.');
      const without = history({ role: 'assistant', content: '', tool_calls: calls() });
      expect(await errorOf(await post({ model: 'm', messages: without }))).toBe(
        'The reasoning_content in the thinking mode must be passed back to the API.',
      );
      const altered = history({
        role: 'assistant',
        content: '',
        reasoning_content: 'Something else.',
        tool_calls: calls(),
      });
      expect(await errorOf(await post({ model: 'm', messages: altered }))).toMatch(/passed back/);
      const sentBack = history({
        role: 'assistant',
        content: '',
        reasoning_content: reasoning,
        tool_calls: calls(),
      });
      expect((await post({ model: 'm', messages: sentBack })).status).toBe(200);
      expect(server.rejected.map((request) => request.rejection)).toHaveLength(2);
    });

    it('rejects a tool-call turn of an earlier user turn without its reasoning too', async () => {
      server = await startStrictOpenAIServer({ dialect: 'deepseek', script: ['Fine.'] });
      const earlier = [
        ...history({ role: 'assistant', content: '', tool_calls: calls() }),
        { role: 'assistant', content: 'Sunny and rain.' },
        { role: 'user', content: 'Thanks!' },
      ];
      expect(await errorOf(await post({ model: 'm', messages: earlier }))).toMatch(/passed back/);
    });
  });

  describe('gemini', () => {
    it('signs the first tool call of a reply only, and rejects a call of the current turn sent back unsigned', async () => {
      server = await startStrictOpenAIServer({ dialect: 'gemini', script: [twoCalls, 'Done.'] });
      const heads = deltas(await streamed([question]))
        .flatMap((delta) => (delta['tool_calls'] as Record<string, unknown>[] | undefined) ?? [])
        .filter((call) => call['id'] !== undefined);
      expect(heads.map((call) => call['extra_content'])).toEqual([
        { google: { thought_signature: expect.any(String) } },
        undefined,
      ]);
      const signed = heads[0]!['extra_content'] as JsonObject;
      const unsigned = history({ role: 'assistant', content: '', tool_calls: calls() });
      expect(await errorOf(await post({ model: 'm', messages: unsigned }))).toBe(
        'Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:get_weather` , position 2. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.',
      );
      const forged = history({
        role: 'assistant',
        content: '',
        tool_calls: calls({ google: { thought_signature: 'Zm9yZ2Vk' } }),
      });
      expect(await errorOf(await post({ model: 'm', messages: forged }))).toMatch(
        /^Corrupted thought signature/,
      );
      const sentBack = history({ role: 'assistant', content: '', tool_calls: calls(signed) });
      expect((await post({ model: 'm', messages: sentBack })).status).toBe(200);
    });

    it('accepts unsigned calls of earlier turns (only the current turn is validated)', async () => {
      server = await startStrictOpenAIServer({ dialect: 'gemini', script: ['Fine.'] });
      const earlier = [
        ...history({ role: 'assistant', content: '', tool_calls: calls() }),
        { role: 'assistant', content: 'Sunny and rain.' },
        { role: 'user', content: 'Thanks!' },
      ];
      expect((await post({ model: 'm', messages: earlier })).status).toBe(200);
    });
  });

  describe('openrouter', () => {
    it('streams reasoning with reasoning_details pieces by index, and rejects a tool-call turn without them', async () => {
      server = await startStrictOpenAIServer({
        dialect: 'openrouter',
        script: [{ ...twoCalls, thinking: 'Two cities, two calls.' }, 'Done.'],
      });
      const reasoningDeltas = deltas(await streamed([question])).filter(
        (delta) => delta['reasoning'] !== undefined,
      );
      expect(reasoningDeltas.map((delta) => delta['reasoning']).join('')).toBe(
        'Two cities, two calls.',
      );
      const pieces = reasoningDeltas.flatMap((delta) => delta['reasoning_details'] as JsonObject[]);
      expect(pieces.length).toBeGreaterThan(1);
      for (const piece of pieces)
        expect(piece).toMatchObject({
          type: 'reasoning.text',
          index: 0,
          format: 'anthropic-claude-v1',
        });
      expect(pieces.filter((piece) => piece['signature'] !== undefined)).toEqual([pieces.at(-1)]);
      const merged = {
        ...pieces.at(-1),
        text: pieces.map((piece) => piece['text']).join(''),
      };
      const without = history({
        role: 'assistant',
        content: '',
        reasoning: 'Two cities, two calls.',
        tool_calls: calls(),
      });
      expect(await errorOf(await post({ model: 'm', messages: without }))).toMatch(
        /^messages\.1\.content\.0\.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`/,
      );
      const altered = history({
        role: 'assistant',
        content: '',
        reasoning_details: [{ ...merged, signature: 'Zm9yZ2Vk' }],
        tool_calls: calls(),
      });
      expect(await errorOf(await post({ model: 'm', messages: altered }))).toMatch(
        /Invalid `signature` in `thinking` block/,
      );
      const sentBack = history({
        role: 'assistant',
        content: '',
        reasoning_details: [merged],
        tool_calls: calls(),
      });
      expect((await post({ model: 'm', messages: sentBack })).status).toBe(200);
    });

    it('puts reasoning and reasoning_details on a non-streamed reply', async () => {
      server = await startStrictOpenAIServer({ dialect: 'openrouter', script: [twoCalls] });
      const response = await post({ model: 'm', messages: [question], tools: [weatherTool] });
      const body = (await response.json()) as { choices: { message: JsonObject }[] };
      expect(body.choices[0]!.message).toMatchObject({
        reasoning: 'Reply 1: I think before I answer.',
        reasoning_details: [
          {
            type: 'reasoning.text',
            text: 'Reply 1: I think before I answer.',
            index: 0,
            signature: expect.any(String),
          },
        ],
      });
    });
  });
});
