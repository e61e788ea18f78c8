import { describe, expect, it } from 'vitest';
import { parseVerdict } from './judgeGuard.js';

describe('parseVerdict', () => {
  it('reads PASS and FAIL replies, tolerating markdown and case', () => {
    expect(parseVerdict('PASS')).toMatchObject({ pass: true });
    expect(parseVerdict('**pass**')).toMatchObject({ pass: true });
    expect(parseVerdict('FAIL: the second city is missing')).toEqual({
      pass: false,
      feedback: 'the second city is missing',
      details: { verdict: 'fail', feedback: 'the second city is missing' },
    });
    expect(parseVerdict('fail - too short')).toMatchObject({ pass: false, feedback: 'too short' });
  });

  it('gives a FAIL without reasons a generic instruction', () => {
    expect(parseVerdict('FAIL')).toMatchObject({
      pass: false,
      feedback: expect.stringMatching(/every point/),
    });
  });

  it('passes an unreadable reply (fail-open) and says so', () => {
    expect(parseVerdict('I think it is fine?')).toMatchObject({
      pass: true,
      details: { verdict: 'unreadable' },
    });
  });
});
