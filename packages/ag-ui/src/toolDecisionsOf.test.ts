import { describe, expect, it } from 'vitest';
import { toolDecisionsOf } from './toolDecisionsOf.js';

describe('toolDecisionsOf', () => {
  it('approves resolved entries whose payload says approved: true', () => {
    expect(
      toolDecisionsOf([{ interruptId: 'a', status: 'resolved', payload: { approved: true } }]),
    ).toEqual({ approve: ['a'], deny: {} });
  });

  it('denies with the given reason, a default reason, or "cancelled"', () => {
    const { approve, deny } = toolDecisionsOf([
      { interruptId: 'a', status: 'resolved', payload: { approved: false, reason: 'too costly' } },
      { interruptId: 'b', status: 'resolved', payload: { approved: false } },
      { interruptId: 'c', status: 'cancelled' },
    ]);
    expect(approve).toEqual([]);
    expect({ ...deny }).toEqual({ a: 'too costly', b: 'denied by the user', c: 'cancelled' });
  });

  it('treats an answer without a boolean "approved" as a denial, so no tool runs by mistake', () => {
    const { approve, deny } = toolDecisionsOf([
      { interruptId: 'a', status: 'resolved', payload: 'yes' },
      { interruptId: 'b', status: 'resolved', payload: { approved: 'true' } },
      { interruptId: 'c', status: 'resolved' },
    ]);
    expect(approve).toEqual([]);
    expect({ ...deny }).toEqual({ a: 'no decision', b: 'no decision', c: 'no decision' });
  });

  it('keeps an interrupt id such as "__proto__" as plain data', () => {
    const { deny } = toolDecisionsOf([{ interruptId: '__proto__', status: 'cancelled' }]);
    expect(Object.keys(deny)).toEqual(['__proto__']);
    expect(Object.getOwnPropertyDescriptor(deny, '__proto__')?.value).toBe('cancelled');
  });
});
