import { describe, expect, it } from 'vitest';
import { backoffDelay, FIRST_RETRY_MS, MAX_RETRY_MS } from './backoff.js';

describe('backoffDelay', () => {
  it('doubles from 50 ms and stops growing at 1 s', () => {
    const none = () => 0;
    expect([0, 1, 2, 3, 4, 5, 6, 40].map((attempt) => backoffDelay(attempt, none))).toEqual([
      50, 100, 200, 400, 800, 1000, 1000, 1000,
    ]);
  });

  it('takes off up to 20% at random so processes do not reconnect in step', () => {
    expect(backoffDelay(0, () => 1)).toBe(FIRST_RETRY_MS * 0.8);
    expect(backoffDelay(10, () => 0.5)).toBe(MAX_RETRY_MS * 0.9);
  });
});
