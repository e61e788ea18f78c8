import { Role } from '@a2a-js/sdk';
import { readToolDecisions, textOf } from '@rxagent/core';
import { describe, expect, it } from 'vitest';
import { a2aMessage, dataPart, textPart } from './a2aParts.js';
import { agentInputOf } from './agentInputOf.js';

describe('agentInputOf', () => {
  it('joins the text parts into a user message', () => {
    const msg = agentInputOf(a2aMessage('user', [textPart('Hello, '), textPart('world')]));
    expect(msg.role).toBe('user');
    expect(textOf(msg)).toBe('Hello, world');
  });

  it('turns a decisions data part into toolDecisions, whatever text comes with it', () => {
    const message = a2aMessage('user', [
      textPart('ok'),
      dataPart({ approve: ['a'], deny: { b: 'too risky' } }),
    ]);
    expect(readToolDecisions(agentInputOf(message))).toMatchObject({
      approve: ['a'],
      deny: { b: 'too risky' },
    });
  });

  it('passes edit, remember and by through to toolDecisions', () => {
    const message = a2aMessage('user', [
      dataPart({ edit: { c: { path: 'a.txt' } }, remember: ['read_file'], by: 'ana' }),
    ]);
    expect(readToolDecisions(agentInputOf(message))).toMatchObject({
      approve: [],
      edit: { c: { path: 'a.txt' } },
      remember: ['read_file'],
      by: 'ana',
    });
    expect(() => agentInputOf(a2aMessage('user', [dataPart({ edit: { c: 'x' } })]))).toThrow(
      /edited arguments of c must be a JSON object/,
    );
  });

  it('rejects decisions of the wrong shape, naming the field', () => {
    expect(() => agentInputOf(a2aMessage('user', [dataPart({ approve: 'a' })]))).toThrow(
      /"approve" that is not an array/,
    );
    expect(() => agentInputOf(a2aMessage('user', [dataPart({ deny: { a: 1 } })]))).toThrow(
      /"deny" that is not an object/,
    );
    expect(() =>
      agentInputOf(a2aMessage('user', [dataPart({ approve: ['a'], deny: { a: 'x' } })])),
    ).toThrow(/both approved and denied/);
  });

  it('rejects a message with neither text nor decisions', () => {
    const message = { ...a2aMessage('user', [dataPart({ note: 1 })]), role: Role.ROLE_USER };
    expect(() => agentInputOf(message)).toThrow(/no text part/);
    expect(() => agentInputOf(a2aMessage('user', [textPart('   ')]))).toThrow(/no text part/);
  });
});
