import { InvalidArgumentError, type JsonObject, type ToolEvent, Toolkit } from '@rxagent/core';
import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import { unresolvedRefs } from '../test/schemaRefs.js';
import { GENERATE_RESPONSE, responseParameters, responseTool } from './responseTool.js';

type Tree = { name: string; children: Tree[] };
const tree4: z.ZodType<Tree> = z.object({
  name: z.string(),
  get children() {
    return z.array(tree4);
  },
});
const tree3: z3.ZodType<Tree> = z3.lazy(() =>
  z3.object({ name: z3.string(), children: z3.array(tree3) }),
);
const treeJson: JsonObject = {
  type: 'object',
  properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } },
  required: ['name', 'children'],
};
const flat = {
  v4: z.object({ city: z.string(), unit: z.enum(['c', 'f']).default('c') }),
  v3: z3.object({ city: z3.string(), unit: z3.enum(['c', 'f']).default('c') }),
  json: {
    type: 'object',
    properties: {
      city: { type: 'string' },
      unit: { type: 'string', enum: ['c', 'f'], default: 'c' },
    },
    required: ['city'],
  },
};

/** The JSON Schema the model is sent for `generate_response` with `schema`. */
function sentParameters(schema: object): JsonObject {
  const toolkit = new Toolkit([responseTool(responseParameters(schema), () => {})]);
  return toolkit.schemas()[0]!.function.parameters as JsonObject;
}

function run(
  schema: object,
  input: unknown,
  accepted: Array<[string, unknown]> = [],
): Promise<ToolEvent[]> {
  const toolkit = new Toolkit([
    responseTool(responseParameters(schema), (id, value) => accepted.push([id, value])),
  ]);
  const signal = new AbortController().signal;
  return lastValueFrom(
    toolkit
      .execute({ id: 'call_1', name: GENERATE_RESPONSE, input }, { signal, toolCallId: 'call_1' })
      .pipe(toArray()),
  );
}

describe('responseParameters', () => {
  it.each([
    ['zod v4', tree4],
    ['zod v3', tree3],
    ['JSON Schema', treeJson],
  ])(
    'sends a recursive %s schema under "response" with every $ref resolving from the root',
    (_, schema) => {
      const parameters = sentParameters(schema);

      expect(parameters).toMatchObject({ type: 'object', required: ['response'] });
      expect(Object.keys(parameters['properties'] as JsonObject)).toEqual(['response']);
      expect(JSON.stringify(parameters)).toContain('"$ref"');
      expect(unresolvedRefs(parameters)).toEqual([]);
    },
  );

  it.each(Object.entries(flat))('sends a flat %s schema inline under "response"', (_, schema) => {
    expect(sentParameters(schema)['properties']).toMatchObject({
      response: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    });
  });

  it('converts a schema object once, however many calls use it', () => {
    expect(responseParameters(flat.json)).toBe(responseParameters(flat.json));
    expect(responseParameters(flat.v4)).toBe(responseParameters(flat.v4));
  });

  it.each([null, [], 'a string', 42])(
    'rejects %j with an InvalidArgumentError naming what it got',
    (value) => {
      expect(() => responseParameters(value as never)).toThrow(InvalidArgumentError);
      expect(() => responseParameters(value as never)).toThrow(
        /structuredOutput must be a zod schema .* or a JSON Schema object/,
      );
    },
  );
});

describe('responseTool', () => {
  it.each(Object.entries(flat))(
    'hands a valid %s response to accept, parsed with defaults applied',
    async (_, schema) => {
      const accepted: Array<[string, unknown]> = [];

      const events = await run(schema, { response: { city: 'Paris' } }, accepted);

      expect(accepted).toEqual([['call_1', { city: 'Paris', unit: 'c' }]]);
      expect(events).toEqual([
        { type: 'result', result: expect.not.objectContaining({ isError: true }) },
      ]);
    },
  );

  it.each(Object.entries(flat))(
    'returns an error result naming each failing path of an invalid %s response, without accepting it',
    async (_, schema) => {
      const accepted: Array<[string, unknown]> = [];

      const [event] = await run(schema, { response: { city: 3, unit: 'k' } }, accepted);

      expect(accepted).toEqual([]);
      expect(event).toMatchObject({ type: 'result', result: { isError: true } });
      const output = event?.type === 'result' ? String(event.result.output) : '';
      expect(output).toContain('response.city');
      expect(output).toContain('response.unit');
    },
  );

  it('tells the model "response" is missing when the object comes unwrapped', async () => {
    const [event] = await run(flat.v4, { city: 'Paris' });

    expect(event?.type === 'result' && event.result.output).toMatch(/response: /);
  });

  it('is never deduplicated and says when to call it', () => {
    const made = responseTool(responseParameters(flat.v4), () => {});

    expect(made.name).toBe(GENERATE_RESPONSE);
    expect(made.dedupe).toBe(false);
    expect(made.description).toMatch(/when you have all the information for the final answer/);
  });

  it('rejects a schema with no JSON Schema form with an InvalidArgumentError', () => {
    expect(() => responseTool(responseParameters(z.object({ at: z.date() })), () => {})).toThrow(
      InvalidArgumentError,
    );
  });
});
