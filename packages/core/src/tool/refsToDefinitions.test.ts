import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../json.js';
import { refsToDefinitions } from './refsToDefinitions.js';

describe('refsToDefinitions', () => {
  it('leaves a schema without refs untouched', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    expect(refsToDefinitions(structuredClone(schema))).toEqual(schema);
  });

  it('moves nested path targets into definitions, avoiding taken names', () => {
    const schema: JsonObject = {
      type: 'object',
      properties: {
        outer: {
          type: 'object',
          properties: {
            inner: { type: 'string' },
            again: { $ref: '#/properties/outer/properties/inner' },
          },
        },
        copy: { $ref: '#/properties/outer' },
      },
      definitions: { outer: { type: 'number' } },
    };
    expect(refsToDefinitions(schema)).toEqual({
      type: 'object',
      properties: {
        outer: { $ref: '#/definitions/outer2' },
        copy: { $ref: '#/definitions/outer2' },
      },
      definitions: {
        outer: { type: 'number' },
        outer2: {
          type: 'object',
          properties: {
            inner: { $ref: '#/definitions/inner' },
            again: { $ref: '#/definitions/inner' },
          },
        },
        inner: { type: 'string' },
      },
    });
  });

  it('ignores "$ref" inside instance data such as defaults', () => {
    const schema: JsonObject = {
      type: 'object',
      default: { $ref: '#/properties/x' },
      properties: {},
    };
    expect(refsToDefinitions(structuredClone(schema))).toEqual(schema);
  });

  it('keeps refs that already point at a definition', () => {
    const schema: JsonObject = {
      type: 'object',
      properties: { a: { $ref: '#/definitions/A' } },
      definitions: { A: { type: 'string' } },
    };
    expect(refsToDefinitions(structuredClone(schema))).toEqual(schema);
  });
});
