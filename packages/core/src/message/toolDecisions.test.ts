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
    expect(msg.metadata).toEqual({ toolDecisions: { approve: ['a'], deny: { b: 'too costly' } } });
    expect(JSON.parse(JSON.stringify(msg))).toEqual(msg);
  });

  it('defaults to no decision at all', () => {
    expect(readToolDecisions(toolDecisions())).toEqual({ approve: [], deny: {} });
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
});

describe('readToolDecisions', () => {
  it('reads the decisions back, and nothing from another Msg', () => {
    const msg = toolDecisions({ approve: ['x'] });
    expect(readToolDecisions(msg)).toEqual({ approve: ['x'], deny: {} });
    expect(readToolDecisions(userMsg('hello'))).toBeUndefined();
  });

  it('keeps only well-typed entries of decisions that came from JSON', () => {
    const msg = userMsg('', {
      metadata: { toolDecisions: { approve: ['a', 2], deny: { b: 'no', c: false } } },
    });
    expect(readToolDecisions(msg)).toEqual({ approve: ['a'], deny: { b: 'no' } });
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
