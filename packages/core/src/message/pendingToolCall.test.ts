import { describe, expect, it } from 'vitest';
import { nestPendingCalls, pendingCallPath } from './pendingToolCall.js';

const own = { type: 'tool_use' as const, id: 'c1', name: 'pay', input: { amount: 1 } };
const deeper = { ...own, id: 'c2', metadata: { path: ['booking', 'payments'] } };

describe('nestPendingCalls', () => {
  it("prefixes the caller's name; an own call of the inner agent counts as its name", () => {
    expect(nestPendingCalls([own, deeper], 'booking', 'travel')).toEqual([
      { ...own, metadata: { path: ['travel', 'booking'] } },
      { ...deeper, metadata: { path: ['travel', 'booking', 'payments'] } },
    ]);
  });

  it('starts the path at the inner agent when no agent called it', () => {
    expect(nestPendingCalls([own, deeper], 'booking', undefined).map(pendingCallPath)).toEqual([
      ['booking'],
      ['booking', 'payments'],
    ]);
  });

  it('reads no path from an own call or a malformed one', () => {
    expect(pendingCallPath(own)).toBeUndefined();
    expect(pendingCallPath({ ...own, metadata: { path: [1] } } as never)).toBeUndefined();
    expect(pendingCallPath(deeper)).toEqual(['booking', 'payments']);
  });
});
