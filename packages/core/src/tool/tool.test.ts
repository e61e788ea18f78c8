import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import { InvalidArgumentError } from '../errors.js';
import type { JsonObject } from '../json.js';
import { type Tool, tool } from './tool.js';

const params = z.object({ q: z.string() });

function valid() {
  return { name: 'search', description: 'Searches.', parameters: params, execute: () => 'ok' };
}

describe('tool', () => {
  it('returns a frozen tool carrying the definition', () => {
    const execute = () => 'ok';
    const t = tool({ ...valid(), execute, dedupe: false, timeoutMs: 500 });
    expect(Object.isFrozen(t)).toBe(true);
    expect(t).toEqual({
      name: 'search',
      description: 'Searches.',
      parameters: params,
      execute,
      dedupe: false,
      timeoutMs: 500,
    });
  });

  it('leaves optional fields out when they are not given', () => {
    expect(Object.keys(tool(valid())).sort()).toEqual([
      'description',
      'execute',
      'name',
      'parameters',
    ]);
  });

  it.each(['', 'has space', 'dot.name', 'x'.repeat(65), 'ünï'])('rejects the name %j', (name) => {
    expect(() => tool({ ...valid(), name })).toThrow(/name/);
    expect(() => tool({ ...valid(), name })).toThrow(InvalidArgumentError);
  });

  it('accepts a 64-character name of letters, digits, _ and -', () => {
    expect(tool({ ...valid(), name: `a-_9${'x'.repeat(60)}` }).name).toHaveLength(64);
  });

  it('rejects a description that is not a string', () => {
    expect(() => tool({ ...valid(), description: 3 as unknown as string })).toThrow(/description/);
  });

  it('rejects an execute that is not a function', () => {
    expect(() => tool({ ...valid(), execute: 'x' as unknown as () => string })).toThrow(/execute/);
  });

  it('keeps needsApproval, a boolean or a predicate typed by the schema', () => {
    const predicate = (args: { q: string }) => args.q.length > 3;
    expect(tool({ ...valid(), needsApproval: true }).needsApproval).toBe(true);
    const t = tool({ ...valid(), needsApproval: predicate });
    expect(t.needsApproval).toBe(predicate);
    expectTypeOf(t).toEqualTypeOf<Tool<{ q: string }>>();
  });

  it('rejects a needsApproval that is neither a boolean nor a function', () => {
    expect(() => tool({ ...valid(), needsApproval: 'yes' as unknown as boolean })).toThrow(
      /needsApproval must be a boolean or a function/,
    );
  });

  it('rejects a non-positive timeoutMs', () => {
    expect(() => tool({ ...valid(), timeoutMs: 0 })).toThrow(/timeoutMs/);
  });

  it.each([
    ['a zod v4 string', z.string()],
    ['a zod v3 array', z3.array(z3.string())],
    ['a JSON Schema of type string', { type: 'string' }],
  ])('rejects parameters that are %s, naming parameters', (_, parameters) => {
    expect(() => tool({ ...valid(), parameters, execute: () => 'ok' })).toThrow(
      /parameters must describe an object/,
    );
  });

  it('rejects parameters that are not an object at all', () => {
    expect(() =>
      tool({ ...valid(), parameters: null as unknown as object, execute: () => '' }),
    ).toThrow(/parameters/);
  });

  it('rejects a JSON Schema it could not validate when the tool is defined', () => {
    const parameters = { type: 'object', not: { required: ['a'] } };
    expect(() => tool({ ...valid(), parameters, execute: () => '' })).toThrow(/parameters: .*not/);
  });

  it('rejects a zod schema JSON Schema cannot express', () => {
    const parameters = z.object({ when: z.date() });
    expect(() => tool({ ...valid(), parameters, execute: () => '' })).toThrow(
      /parameters: Cannot convert/,
    );
  });

  it('infers the argument type of a zod v4 schema, defaults applied', () => {
    const t = tool({
      name: 'weather',
      description: '',
      parameters: z.object({ city: z.string(), unit: z.enum(['c', 'f']).default('c') }),
      execute: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ city: string; unit: 'c' | 'f' }>();
        return args.city;
      },
    });
    expectTypeOf(t).toEqualTypeOf<Tool<{ city: string; unit: 'c' | 'f' }>>();
  });

  it('infers the argument type of a zod v3 schema', () => {
    const t = tool({
      name: 'weather',
      description: '',
      parameters: z3.object({ city: z3.string(), days: z3.number().optional() }),
      execute: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ city: string; days?: number | undefined }>();
        return args.city;
      },
    });
    expectTypeOf(t).toEqualTypeOf<Tool<{ city: string; days?: number | undefined }>>();
  });

  it('types the arguments of a JSON Schema tool as a JSON object', () => {
    const t = tool({
      name: 'raw',
      description: '',
      parameters: { type: 'object', properties: {} },
      execute: (args) => {
        expectTypeOf(args).toEqualTypeOf<JsonObject>();
        return '';
      },
    });
    expectTypeOf(t).toEqualTypeOf<Tool<JsonObject>>();
  });
});
