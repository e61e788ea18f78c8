import { firstValueFrom, NEVER, of, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Agent } from '../agent/agent.js';
import { InvalidArgumentError } from '../errors.js';
import { guardrail } from './guardrail.js';
import { piiGuardrail } from './piiGuardrail.js';
import { runGuardrails } from './runGuardrails.js';

const agent = { name: 'a' } as Agent;
const ctx = () => ({ agent, signal: new AbortController().signal });
const pass = (name: string) => guardrail({ name, on: 'input', check: () => ({ tripped: false }) });

describe('runGuardrails', () => {
  it('takes a verdict as a value, a Promise or an Observable', async () => {
    const guards = [
      pass('sync'),
      guardrail({
        name: 'promise',
        on: 'input',
        check: async (t) => ({ tripped: false, replacement: `${t}!` }),
      }),
      guardrail({
        name: 'observable',
        on: 'input',
        check: (t) => of({ tripped: false, replacement: `${t}?` }),
      }),
    ];
    const guarded = await firstValueFrom(runGuardrails(guards, 'input', 'hi', ctx()));
    expect(guarded.content).toBe('hi!?');
    expect(guarded.trip).toBeUndefined();
    expect(guarded.reports.map((r) => [r.guardrail, r.replaced])).toEqual([
      ['sync', false],
      ['promise', true],
      ['observable', true],
    ]);
  });

  it('stops at the first trip and skips guardrails of other stages', async () => {
    const seen: string[] = [];
    const guards = [
      guardrail({
        name: 'out',
        on: 'output',
        check: () => {
          seen.push('out');
          return { tripped: true };
        },
      }),
      guardrail({
        name: 'block',
        on: ['input', 'output'],
        check: () => {
          seen.push('block');
          return { tripped: true, reason: 'no' };
        },
      }),
      guardrail({
        name: 'after',
        on: 'input',
        check: () => {
          seen.push('after');
          return { tripped: false };
        },
      }),
    ];
    const guarded = await firstValueFrom(runGuardrails(guards, 'input', 'x', ctx()));
    expect(guarded.trip).toMatchObject({ guardrail: 'block', reason: 'no', tripped: true });
    expect(seen).toEqual(['block']);
  });

  it.each([
    [
      'throws',
      () => {
        throw new Error('boom');
      },
      /failed: boom/,
    ],
    ['rejects', () => Promise.reject(new Error('down')), /failed: down/],
    [
      'errors',
      () => {
        const s = new Subject<never>();
        setTimeout(() => s.error(new Error('bad')));
        return s;
      },
      /failed: bad/,
    ],
    ['completes empty', () => of() as never, /failed: no elements/i],
    ['times out', () => NEVER, /no verdict within 20 ms/],
    ['answers garbage', () => 42 as never, /answered 42, not a verdict/],
    [
      'replaces with the wrong shape',
      () => ({ tripped: false, replacement: { input: {} } }),
      /not a string/,
    ],
  ])('fails closed when the check %s', async (_, check, reason) => {
    const guards = [guardrail({ name: 'g', on: 'input', timeoutMs: 20, check: check as never })];
    const guarded = await firstValueFrom(runGuardrails(guards, 'input', 'x', ctx()));
    expect(guarded.trip?.tripped).toBe(true);
    expect(guarded.trip?.reason).toMatch(reason);
  });

  it('aborts the running check when unsubscribed, and errors with the call signal abort', async () => {
    let aborted = false;
    const slow = guardrail({
      name: 'slow',
      on: 'input',
      check: (_, { signal }) =>
        new Promise((resolve) =>
          signal.addEventListener('abort', () => {
            aborted = true;
            resolve({ tripped: false });
          }),
        ),
    });
    runGuardrails([slow], 'input', 'x', ctx()).subscribe().unsubscribe();
    await new Promise((r) => setTimeout(r, 0));
    expect(aborted).toBe(true);
    const call = new AbortController();
    const running = firstValueFrom(
      runGuardrails([slow], 'input', 'x', { agent, signal: call.signal }),
    );
    call.abort(new Error('cancelled'));
    await expect(running).rejects.toThrow('cancelled');
  });

  it('redacts a tool call argument deep in its input', async () => {
    const guarded = await firstValueFrom(
      runGuardrails(
        [piiGuardrail({ redact: true, on: 'toolCall' })],
        'toolCall',
        { name: 'send', input: { to: ['bob@example.com'], n: 1 } },
        ctx(),
      ),
    );
    expect(guarded.content).toEqual({ name: 'send', input: { to: ['[REDACTED:email]'], n: 1 } });
  });
});

describe('guardrail()', () => {
  it.each([
    [{ name: '', on: 'input', check: () => ({ tripped: false }) }, /name/],
    [{ name: 'g', on: 'inbox', check: () => ({ tripped: false }) }, /on must be/],
    [{ name: 'g', on: [], check: () => ({ tripped: false }) }, /on must be/],
    [{ name: 'g', on: 'input' }, /check must be a function/],
    [{ name: 'g', on: 'input', check: () => ({ tripped: false }), timeoutMs: 0 }, /timeoutMs/],
  ])('rejects a bad definition %#', (definition, message) => {
    expect(() => guardrail(definition as never)).toThrow(InvalidArgumentError);
    expect(() => guardrail(definition as never)).toThrow(message);
  });
});
