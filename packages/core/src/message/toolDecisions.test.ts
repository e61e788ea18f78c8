import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors.js';
import { userMsg } from './msg.js';
import { readToolDecisions, restrictDecisions, toolDecisions } from './toolDecisions.js';

describe('toolDecisions', () => {
  it('makes a content-less user Msg carrying the decisions in metadata', () => {
    const msg = toolDecisions({ approve: ['a'], deny: { b: 'too costly' } });

    expect(msg.role).toBe('user');
    expect(msg.name).toBe('user');
    expect(msg.content).toEqual([]);
    expect(msg.metadata).toEqual({
      toolDecisions: { approve: ['a'], deny: { b: 'too costly' } },
    });
    expect(JSON.parse(JSON.stringify(msg))).toEqual(msg);
  });

  it('carries edited arguments, remembered tools and who decided', () => {
    const msg = toolDecisions({
      edit: { c: { path: '/tmp/x', depth: 2 } },
      remember: ['read_file'],
      by: 'ana',
    });
    expect(msg.metadata['toolDecisions']).toEqual({
      approve: [],
      deny: {},
      edit: { c: { path: '/tmp/x', depth: 2 } },
      remember: ['read_file'],
      by: 'ana',
    });
    expect(readToolDecisions(msg)).toEqual({
      approve: [],
      deny: {},
      edit: { c: { path: '/tmp/x', depth: 2 } },
      remember: ['read_file'],
      by: 'ana',
      at: msg.timestamp,
    });
  });

  it('defaults to no decision at all', () => {
    const msg = toolDecisions();
    expect(readToolDecisions(msg)).toEqual({
      approve: [],
      deny: {},
      edit: {},
      remember: [],
      at: msg.timestamp,
    });
  });

  it('rejects an id both approved and denied, and non-string reasons', () => {
    expect(() => toolDecisions({ approve: ['a'], deny: { a: 'no' } })).toThrow(
      /a are both approved and denied/,
    );
    expect(() => toolDecisions({ deny: { a: 3 as unknown as string } })).toThrow(
      InvalidArgumentError,
    );
    expect(() => toolDecisions({ approve: [1 as unknown as string] })).toThrow(/approve/);
  });

  it('rejects an id both edited and denied, and edits that are not JSON objects', () => {
    expect(() => toolDecisions({ edit: { a: { n: 1 } }, deny: { a: 'no' } })).toThrow(
      /a are both approved and denied/,
    );
    expect(() => toolDecisions({ edit: { a: [1] as never } })).toThrow(
      /edited arguments of a must be a JSON object.*not an object/,
    );
    expect(() => toolDecisions({ edit: { a: { when: new Date() } as never } })).toThrow(
      /arguments\.when is a Date/,
    );
    expect(() => toolDecisions({ edit: { a: { n: Number.NaN } } })).toThrow(/arguments\.n is NaN/);
  });

  it('rejects remembered names and a by that are not non-empty strings, and unknown keys', () => {
    expect(() => toolDecisions({ remember: [''] })).toThrow(/remember must be an array/);
    expect(() => toolDecisions({ remember: [3 as unknown as string] })).toThrow(
      InvalidArgumentError,
    );
    expect(() => toolDecisions({ by: '' })).toThrow(/by must be a non-empty string/);
    expect(() => toolDecisions({ by: 7 as unknown as string })).toThrow(/by must be/);
    expect(() => toolDecisions({ edits: {} } as never)).toThrow(TypeError);
  });
});

describe('readToolDecisions', () => {
  it('reads the decisions back, and nothing from another Msg', () => {
    const msg = toolDecisions({ approve: ['x'] });
    expect(readToolDecisions(msg)).toMatchObject({ approve: ['x'], deny: {} });
    expect(readToolDecisions(userMsg('hello'))).toBeUndefined();
  });

  it('keeps only well-typed entries of decisions that came from JSON', () => {
    const msg = userMsg('', {
      metadata: {
        toolDecisions: {
          approve: ['a', 2],
          deny: { b: 'no', c: false },
          edit: { d: { n: 1 }, e: 'x', b: { n: 2 } },
          remember: ['t', 4, ''],
          by: 5,
        },
      },
    });
    expect(readToolDecisions(msg)).toEqual({
      approve: ['a'],
      deny: { b: 'no' },
      edit: { d: { n: 1 } },
      remember: ['t'],
      at: msg.timestamp,
    });
  });
});

describe('restrictDecisions', () => {
  it('keeps the ids given in approve and in every id-keyed field, and passes the rest on', () => {
    const decisions = {
      approve: ['a', 'x'],
      deny: { b: 'no', y: 'never' },
      edit: { a: { n: 1 }, z: { n: 2 } },
      by: 'alice',
    };
    expect(restrictDecisions(decisions, new Set(['a', 'b']))).toEqual({
      approve: ['a'],
      deny: { b: 'no' },
      edit: { a: { n: 1 } },
      by: 'alice',
    });
    expect(restrictDecisions({ approve: ['x'], deny: {} }, new Set(['a']))).toEqual({
      approve: [],
      deny: {},
    });
  });
});
