import {
  type JsonObject,
  StructuredOutputError,
  Toolkit,
  textOf,
  tool,
  UnsupportedStructuredOutputError,
  userMsg,
} from '@rxagent/core';
import { ReActAgent } from '@rxagent/react-agent';
import { GENERATE_RESPONSE, StructuredOutputReminder } from '@rxagent/structured-output';
import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import {
  body,
  harness,
  modelFor,
  respond,
  strictServer,
  transcript,
  wireMessages,
  wireTools,
} from './harness.js';
import { unresolvedRefs } from './schemaRefs.js';

const schemas = {
  'zod v4': z.object({ name: z.string(), age: z.number().int(), nick: z.string().default('none') }),
  'zod v3': z3.object({
    name: z3.string(),
    age: z3.number().int(),
    nick: z3.string().default('none'),
  }),
  'JSON Schema': {
    type: 'object',
    properties: {
      name: { type: 'string' },
      age: { type: 'integer' },
      nick: { type: 'string', default: 'none' },
    },
    required: ['name', 'age'],
  },
};
const Person = schemas['zod v4'];
const ADA = { response: { name: 'Ada', age: 36 } };
const PARSED_ADA = { name: 'Ada', age: 36, nick: 'none' };
const FORCED = { type: 'function', function: { name: GENERATE_RESPONSE } };

function weatherToolkit(): Toolkit {
  return new Toolkit([
    tool({
      name: 'get_weather',
      description: 'Current weather of a city.',
      parameters: z.object({ city: z.string() }),
      execute: ({ city }) => (city === 'Paris' ? 'Sunny, 21°C' : 'unknown'),
    }),
  ]);
}

describe.each(Object.entries(schemas))('StructuredOutputAgent with a %s schema', (_, schema) => {
  it('answers with the validated response when the model calls generate_response at once', async () => {
    const { server, agent } = await harness([respond(ADA)]);

    const reply = await lastValueFrom(
      agent.call(userMsg('Ada is 36.'), { structuredOutput: schema }),
    );

    expect(reply.metadata['response']).toEqual(PARSED_ADA);
    expect(reply.metadata['generateReason']).toBe('structured_output');
    expect(JSON.parse(textOf(reply))).toEqual(PARSED_ADA);
    expect(server.requests).toHaveLength(1);
    const parameters = wireTools(server, 0).get(GENERATE_RESPONSE)?.['parameters'] as JsonObject;
    expect(parameters).toMatchObject({
      type: 'object',
      properties: { response: { type: 'object' } },
      required: ['response'],
    });
    expect(transcript(agent.memory.messages())).toEqual([
      'user:Ada is 36.',
      `assistant:${textOf(reply)}`,
    ]);
  });
});

describe('StructuredOutputAgent over HTTP', () => {
  it('forces tool_choice on the request after a plain-text answer (TOOL_CHOICE)', async () => {
    const { server, agent } = await harness(['Ada is 36 years old.', respond(ADA)]);

    const reply = await lastValueFrom(
      agent.call(userMsg('How old is Ada?'), { structuredOutput: Person }),
    );

    expect(reply.metadata['response']).toEqual(PARSED_ADA);
    expect(body(server, 0)).not.toHaveProperty('tool_choice');
    expect(body(server, 1)['tool_choice']).toEqual(FORCED);
    expect(wireMessages(server, 1).at(-1)).toEqual({
      role: 'assistant',
      content: 'Ada is 36 years old.',
    });
    expect(transcript(agent.memory.messages())).toEqual([
      'user:How old is Ada?',
      `assistant:${textOf(reply)}`,
    ]);
  });

  it('lets the model call business tools first, then returns the response', async () => {
    const { server, agent } = await harness(
      [
        { toolCalls: [{ id: 'w1', name: 'get_weather', arguments: { city: 'Paris' } }] },
        respond({ response: 'Sunny' }),
      ],
      { toolkit: weatherToolkit() },
    );

    const reply = await lastValueFrom(
      agent.call(userMsg('Weather in Paris?'), { structuredOutput: z.string() }),
    );

    expect(reply.metadata['response']).toBe('Sunny');
    expect([...wireTools(server, 0).keys()]).toEqual(['get_weather', GENERATE_RESPONSE]);
    expect(wireMessages(server, 1).at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'w1',
      content: 'Sunny, 21°C',
    });
    expect(transcript(agent.memory.messages())).toEqual([
      'user:Weather in Paris?',
      'assistant:tool_use(get_weather)',
      'tool:tool_result(get_weather)',
      'assistant:"Sunny"',
    ]);
  });

  it('adds a PROMPT reminder (user role, named system, flagged) and forces no tool_choice', async () => {
    const { server, agent } = await harness(['Ada, 36.', respond(ADA)], {
      reminder: StructuredOutputReminder.PROMPT,
    });
    const seen: JsonObject[] = [];
    agent.addHook({
      onEvent: (event) => {
        if (event.type === 'preReasoning')
          seen.push(event.messages.at(-1) as unknown as JsonObject);
      },
    });

    const reply = await lastValueFrom(agent.call(userMsg('Who?'), { structuredOutput: Person }));

    expect(reply.metadata['response']).toEqual(PARSED_ADA);
    expect(seen[1]).toMatchObject({
      role: 'user',
      name: 'system',
      metadata: { systemFeedback: true, structuredOutputReminder: 'prompt' },
    });
    expect(body(server, 1)).not.toHaveProperty('tool_choice');
    expect(wireMessages(server, 1).slice(-2)).toEqual([
      { role: 'assistant', content: 'Ada, 36.' },
      { role: 'user', name: 'system', content: expect.stringContaining(GENERATE_RESPONSE) },
    ]);
    expect(transcript(agent.memory.messages())).toEqual([
      'user:Who?',
      `assistant:${textOf(reply)}`,
    ]);
  });

  it('returns a validation error naming the failing path, then accepts the corrected response', async () => {
    const { server, agent } = await harness([
      respond({ response: { name: 'Ada', age: 'thirty-six' } }, 'bad'),
      respond(ADA, 'good'),
    ]);

    const reply = await lastValueFrom(
      agent.call(userMsg('Ada, 36.'), { structuredOutput: Person }),
    );

    const error = wireMessages(server, 1).at(-1);
    expect(error).toMatchObject({ role: 'tool', tool_call_id: 'bad' });
    expect(error?.content).toMatch(/response\.age: .*number/);
    expect(reply.metadata['response']).toEqual(PARSED_ADA);
    expect(transcript(agent.memory.messages())).toEqual([
      'user:Ada, 36.',
      `assistant:${textOf(reply)}`,
    ]);
  });

  it.each([StructuredOutputReminder.TOOL_CHOICE, StructuredOutputReminder.PROMPT])(
    'errors after 4 requests when the model never complies (%s), leaving no reminder in memory',
    async (reminder) => {
      const { server, agent } = await harness(['text 1', 'text 2', 'text 3', 'text 4', 'text 5'], {
        reminder,
      });

      const error: unknown = await lastValueFrom(
        agent.call(userMsg('Who?'), { structuredOutput: Person }),
      ).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(StructuredOutputError);
      expect((error as StructuredOutputError).details.lastProblem).toContain('"text 4"');
      expect(server.requests).toHaveLength(4);
      expect(
        agent.memory.messages().some((m) => m.metadata['structuredOutputReminder'] !== undefined),
      ).toBe(false);
      expect(transcript(agent.memory.messages())).toEqual(['user:Who?']);
    },
  );

  it('keeps the conversation valid after compaction: sibling tool results stay and a follow-up is accepted', async () => {
    const { server, agent } = await harness(
      [
        'Let me check.',
        {
          toolCalls: [
            { id: 'w1', name: 'get_weather', arguments: { city: 'Paris' } },
            { id: 'g1', name: GENERATE_RESPONSE, arguments: { response: 'Sunny' } },
          ],
        },
        'You are welcome.',
      ],
      { toolkit: weatherToolkit(), reminder: StructuredOutputReminder.PROMPT },
    );

    await lastValueFrom(agent.call(userMsg('Weather in Paris?'), { structuredOutput: z.string() }));
    const followUp = await lastValueFrom(agent.call(userMsg('Thanks!')));

    expect(textOf(followUp)).toBe('You are welcome.');
    expect(server.rejected).toEqual([]);
    expect(wireMessages(server, 2)).toHaveLength(6);
    expect(wireMessages(server, 2).slice(1)).toMatchObject([
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        tool_calls: [
          {
            id: 'w1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'w1', content: 'Sunny, 21°C' },
      { role: 'assistant', content: '"Sunny"' },
      { role: 'user', content: 'Thanks!' },
    ]);
    expect(wireTools(server, 2).has(GENERATE_RESPONSE)).toBe(false);
  });

  it('sends a recursive schema whose $refs all resolve, and parses the nested response', async () => {
    type Category = { name: string; subcategories: Category[] };
    const category: z.ZodType<Category> = z.object({
      name: z.string(),
      get subcategories() {
        return z.array(category);
      },
    });
    const tree = { name: 'root', subcategories: [{ name: 'leaf', subcategories: [] }] };
    const { server, agent } = await harness([respond({ response: tree })]);

    const response = await lastValueFrom(agent.callStructured(userMsg('Categories?'), category));

    expect(response).toEqual(tree);
    const parameters = wireTools(server, 0).get(GENERATE_RESPONSE)?.['parameters'];
    expect(JSON.stringify(parameters)).toContain('$ref');
    expect(unresolvedRefs(parameters)).toEqual([]);
  });

  it('sums the usage of every request into the reply', async () => {
    const usage = { inputTokens: 100, outputTokens: 7 };
    const { agent } = await harness([
      { text: 'Ada.', usage },
      { ...respond(ADA), usage },
    ]);

    const reply = await lastValueFrom(agent.call(userMsg('Who?'), { structuredOutput: Person }));

    expect(reply.metadata['usage']).toEqual({
      inputTokens: 200,
      outputTokens: 14,
      totalTokens: 214,
      cachedInputTokens: 0,
    });
  });

  it('rejects structuredOutput on a plain ReActAgent with UnsupportedStructuredOutputError naming the class', async () => {
    const server = await strictServer([]);
    const agent = new ReActAgent({ name: 'plain', sysPrompt: '', model: modelFor(server) });

    const call = lastValueFrom(agent.call(userMsg('Who?'), { structuredOutput: Person }));

    await expect(call).rejects.toThrow(UnsupportedStructuredOutputError);
    await expect(call).rejects.toThrow(/ReActAgent does not support structured output/);
    expect(server.requests).toHaveLength(0);
    expect(agent.memory.size).toBe(0);
  });
});
