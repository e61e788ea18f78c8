import { type JsonObject, validateAgainst } from '@rxagent/core';
import { describe, expect, it } from 'vitest';
import { refsOf, resolvePointer, unresolvedRefs } from '../test/schemaRefs.js';
import { wrapResponseSchema } from './wrapResponseSchema.js';

const tree: JsonObject = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://example.com/tree',
  type: 'object',
  properties: {
    name: { type: 'string' },
    children: { type: 'array', items: { $ref: '#' } },
  },
  required: ['name', 'children'],
};

describe('wrapResponseSchema', () => {
  it('wraps a schema as the required "response" property of an object', () => {
    const schema: JsonObject = { type: 'array', items: { type: 'integer' }, description: 'Scores' };

    expect(wrapResponseSchema(schema)).toEqual({
      type: 'object',
      properties: { response: schema },
      required: ['response'],
    });
  });

  it('hoists $defs and definitions to the root, where their refs still resolve', () => {
    const schema: JsonObject = {
      type: 'object',
      properties: { home: { $ref: '#/$defs/Address' }, work: { $ref: '#/$defs/Address' } },
      $defs: {
        Address: { type: 'object', properties: { city: { $ref: '#/$defs/City' } } },
        City: { type: 'string' },
      },
    };

    const wrapped = wrapResponseSchema(schema);

    expect(wrapped['$defs']).toEqual(schema['$defs']);
    expect(resolvePointer(wrapped, '#/properties/response')).not.toHaveProperty('$defs');
    expect(refsOf(wrapped)).toHaveLength(3);
    expect(unresolvedRefs(wrapped)).toEqual([]);
  });

  it('moves a recursive schema into $defs and points "response" and every "#" at it, without a copy', () => {
    const wrapped = wrapResponseSchema(tree);

    expect(wrapped['properties']).toEqual({ response: { $ref: '#/$defs/Response' } });
    const moved = resolvePointer(wrapped, '#/$defs/Response') as JsonObject;
    expect(moved['properties']).toMatchObject({
      children: { items: { $ref: '#/$defs/Response' } },
    });
    expect(moved).not.toHaveProperty('$id');
    expect(moved).not.toHaveProperty('$schema');
    expect(unresolvedRefs(wrapped)).toEqual([]);
    expect(JSON.stringify(wrapped).match(/"items"/g)).toHaveLength(1);
  });

  it('uses the definitions keyword the schema already uses, under a name not taken', () => {
    const schema: JsonObject = {
      type: 'object',
      properties: { next: { $ref: '#' }, tag: { $ref: '#/definitions/Response' } },
      definitions: { Response: { type: 'string' } },
    };

    const wrapped = wrapResponseSchema(schema);

    expect(wrapped['properties']).toEqual({ response: { $ref: '#/definitions/Response2' } });
    expect(wrapped).not.toHaveProperty('$defs');
    expect(unresolvedRefs(wrapped)).toEqual([]);
  });

  it('prefixes other local pointers and leaves external refs and data values alone', () => {
    const schema: JsonObject = {
      type: 'object',
      properties: {
        a: { type: 'string' },
        b: { $ref: '#/properties/a' },
        c: { $ref: 'https://example.com/other.json' },
        d: { type: 'object', default: { $ref: '#' }, enum: [{ $ref: '#/x' }] },
      },
    };

    const wrapped = wrapResponseSchema(schema);
    const properties = (wrapped['properties'] as JsonObject)['response'] as JsonObject;

    expect(properties['properties']).toMatchObject({
      b: { $ref: '#/properties/response/properties/a' },
      c: { $ref: 'https://example.com/other.json' },
      d: { default: { $ref: '#' }, enum: [{ $ref: '#/x' }] },
    });
    expect(resolvePointer(wrapped, '#/properties/response/properties/a')).toEqual({
      type: 'string',
    });
  });

  it('does not change the schema it wraps', () => {
    const before = structuredClone(tree);

    wrapResponseSchema(tree);

    expect(tree).toEqual(before);
  });

  it('validates like the schema it wraps, recursion included', () => {
    const wrapped = wrapResponseSchema(tree);
    const bad = {
      name: 'root',
      children: [{ name: 'leaf', children: [{ name: 7, children: [] }] }],
    };

    expect(validateAgainst(wrapped, { response: bad })).toEqual({
      ok: false,
      issues: [
        {
          path: 'response.children[0].children[0].name',
          message: expect.stringContaining('string'),
        },
      ],
    });
    expect(validateAgainst(wrapped, { response: { name: 'root', children: [] } })).toMatchObject({
      ok: true,
    });
  });
});
