import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import { InvalidArgumentError } from '../errors.js';
import type { JsonObject } from '../json.js';
import { formatIssues, toJsonSchema, validateAgainst } from './schema.js';

const v4Schema = z.object({
  city: z.string().describe('City name'),
  unit: z.enum(['c', 'f']).default('c'),
  days: z.number().int().min(1).optional(),
  address: z.object({ street: z.string(), tags: z.array(z.string()) }),
});

const v3Schema = z3.object({
  city: z3.string().describe('City name'),
  unit: z3.enum(['c', 'f']).default('c'),
  days: z3.number().int().min(1).optional(),
  address: z3.object({ street: z3.string(), tags: z3.array(z3.string()) }),
});

/** Follows a `#/definitions/<name>` ref from the root of `schema`. */
function deref(schema: JsonObject, ref: unknown): JsonObject {
  expect(ref).toMatch(/^#\/definitions\/[^/]+$/);
  const name = String(ref).slice('#/definitions/'.length);
  return (schema['definitions'] as JsonObject)[name] as JsonObject;
}

describe('toJsonSchema', () => {
  it.each([
    ['zod v4', v4Schema],
    ['zod v3', v3Schema],
  ])(
    'converts a %s object with real properties, required fields, enums, defaults and descriptions',
    (_, schema) => {
      const json = toJsonSchema(schema);
      expect(json['type']).toBe('object');
      expect(json).not.toHaveProperty('$schema');
      expect(json['required']).toEqual(['city', 'address']);
      expect(json['properties']).toMatchObject({
        city: { type: 'string', description: 'City name' },
        unit: { type: 'string', enum: ['c', 'f'], default: 'c' },
        days: { type: 'integer', minimum: 1 },
        address: {
          type: 'object',
          properties: {
            street: { type: 'string' },
            tags: { type: 'array', items: { type: 'string' } },
          },
          required: ['street', 'tags'],
        },
      });
    },
  );

  it('rewrites zod v3 path refs of a recursive schema into root definitions', () => {
    type Node = { value: string; children: Node[] };
    const node: z3.ZodType<Node> = z3.lazy(() =>
      z3.object({ value: z3.string(), children: z3.array(node) }),
    );
    const json = toJsonSchema(z3.object({ tree: node }));
    const properties = json['properties'] as JsonObject;
    const tree = deref(json, (properties['tree'] as JsonObject)['$ref']);
    expect(tree['required']).toEqual(['value', 'children']);
    const children = (tree['properties'] as JsonObject)['children'] as JsonObject;
    expect(deref(json, (children['items'] as JsonObject)['$ref'])).toBe(tree);
    expect(JSON.stringify(json)).not.toContain('#/properties');
  });

  it('keeps a zod v3 schema reused in two places valid after it is embedded elsewhere', () => {
    const point = z3.object({ x: z3.number() });
    const json = toJsonSchema(z3.object({ from: point, to: point }));
    const properties = json['properties'] as JsonObject;
    const from = deref(json, (properties['from'] as JsonObject)['$ref']);
    expect(deref(json, (properties['to'] as JsonObject)['$ref'])).toBe(from);
    expect(from['properties']).toEqual({ x: { type: 'number' } });
  });

  it('points a zod v4 root recursion at a definition instead of "#"', () => {
    const category = z.object({
      name: z.string(),
      get subcategories() {
        return z.array(category);
      },
    });
    const json = toJsonSchema(category);
    expect(json['type']).toBe('object');
    const items = ((json['properties'] as JsonObject)['subcategories'] as JsonObject)[
      'items'
    ] as JsonObject;
    const root = deref(json, items['$ref']);
    expect(root['required']).toEqual(['name', 'subcategories']);
    expect(JSON.stringify(json)).not.toContain('"#"');
  });

  it('deep-copies a plain JSON Schema and strips $schema', () => {
    const plain = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { q: { type: 'string' } },
      required: ['q'],
    };
    const json = toJsonSchema(plain);
    expect(json).toEqual({
      type: 'object',
      properties: { q: { type: 'string' } },
      required: ['q'],
    });
    (json['properties'] as JsonObject)['q'] = { type: 'number' };
    expect(plain.properties.q).toEqual({ type: 'string' });
  });

  it('throws InvalidArgumentError for a zod v4 type JSON Schema cannot express', () => {
    expect(() => toJsonSchema(z.object({ when: z.date() }))).toThrow(InvalidArgumentError);
  });
});

describe('validateAgainst', () => {
  it.each([
    ['zod v4', v4Schema],
    ['zod v3', v3Schema],
  ])('returns the parsed %s value with defaults applied', (_, schema) => {
    const result = validateAgainst(schema, { city: 'Oslo', address: { street: 'A', tags: [] } });
    expect(result).toEqual({
      ok: true,
      value: { city: 'Oslo', unit: 'c', address: { street: 'A', tags: [] } },
    });
  });

  it.each([
    ['zod v4', v4Schema],
    ['zod v3', v3Schema],
  ])('reports each %s issue with a dotted path', (_, schema) => {
    const result = validateAgainst(schema, { days: 0, address: { street: 'A', tags: ['x', 3] } });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((issue) => issue.path)).toEqual(['city', 'days', 'address.tags[1]']);
  });

  it('reports a non-object value at (root)', () => {
    const result = validateAgainst(v4Schema, 'nope');
    expect(result).toMatchObject({ ok: false, issues: [{ path: '(root)' }] });
  });

  it('validates a plain JSON Schema, applying defaults and resolving definitions', () => {
    const schema = {
      type: 'object',
      properties: {
        items: { type: 'array', items: { $ref: '#/definitions/item' } },
        mode: { type: 'string', enum: ['a', 'b'], default: 'a' },
      },
      required: ['items'],
      additionalProperties: false,
      definitions: {
        item: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      },
    };
    expect(validateAgainst(schema, { items: [{ name: 'x' }] })).toEqual({
      ok: true,
      value: { items: [{ name: 'x' }], mode: 'a' },
    });
    const bad = validateAgainst(schema, { items: [{ name: 1 }], mode: 'z', extra: true });
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.issues.map((issue) => issue.path).sort()).toEqual([
      '(root)',
      'items[0].name',
      'mode',
    ]);
  });

  it('validates a plain JSON Schema that uses $defs', () => {
    const schema = {
      type: 'object',
      properties: { n: { $ref: '#/$defs/count' } },
      required: ['n'],
      $defs: { count: { type: 'integer', minimum: 0, maximum: 9 } },
    };
    expect(validateAgainst(schema, { n: 3 }).ok).toBe(true);
    expect(validateAgainst(schema, { n: 10 })).toMatchObject({
      ok: false,
      issues: [{ path: 'n' }],
    });
  });

  it('throws InvalidArgumentError for a JSON Schema keyword it cannot validate', () => {
    const schema = { type: 'object', dependentRequired: { a: ['b'] } };
    expect(() => validateAgainst(schema, {})).toThrow(InvalidArgumentError);
  });

  it('formats keys that are not identifiers with brackets', () => {
    const schema = z.object({ 'first name': z.string() });
    expect(validateAgainst(schema, {})).toMatchObject({
      ok: false,
      issues: [{ path: '["first name"]' }],
    });
  });
});

describe('formatIssues', () => {
  it('writes one "path: message" line per issue', () => {
    const text = formatIssues([
      { path: 'a', message: 'Required' },
      { path: 'b[0]', message: 'Expected string' },
    ]);
    expect(text).toBe('a: Required\nb[0]: Expected string');
  });
});
