import { describe, expect, it } from 'vitest';
import { batchTimeLimit, scaled, timeScale } from './timeLimits.js';

describe('timeScale', () => {
  it('is the load per core, between 1 and 4', () => {
    expect(timeScale({}, 0.5, 2)).toBe(1);
    expect(timeScale({}, 5, 2)).toBe(2.5);
    expect(timeScale({}, 40, 2)).toBe(4);
  });

  it('multiplies by RXAGENT_TEST_TIME_SCALE and rejects a value below 1', () => {
    expect(timeScale({ RXAGENT_TEST_TIME_SCALE: '3' }, 4, 2)).toBe(6);
    expect(() => timeScale({ RXAGENT_TEST_TIME_SCALE: '0.5' }, 0, 2)).toThrow(
      /RXAGENT_TEST_TIME_SCALE must be a number ≥ 1.*got "0.5"/,
    );
    expect(() => timeScale({ RXAGENT_TEST_TIME_SCALE: 'fast' }, 0, 2)).toThrow(TypeError);
  });
});

describe('scaled and batchTimeLimit', () => {
  it('stretches a limit by the scale', () => {
    expect(scaled(20_000, 2.5)).toBe(50_000);
  });

  it('allows every wave of a bounded batch its full limit, plus overhead', () => {
    expect(batchTimeLimit(26, 2, 60_000, 30_000)).toBe(13 * 60_000 + 30_000);
    expect(batchTimeLimit(3, 4, 10_000, 0)).toBe(10_000);
  });
});
