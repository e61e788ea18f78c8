import { describe, expect, it } from 'vitest';
import { parseRunRequest, streamItems } from './runRequest.js';

describe('streamItems', () => {
  it('reads XREAD replies (entries under their stream key) and XRANGE replies alike', () => {
    const entries = [
      ['1-0', ['seq', '0', 'event', '{}']],
      ['2-0', ['seq', '1', 'event', '{}']],
    ];
    const expected = [
      { id: '1-0', fields: { seq: '0', event: '{}' } },
      { id: '2-0', fields: { seq: '1', event: '{}' } },
    ];
    expect(streamItems([['run:1', entries]])).toEqual(expected);
    expect(streamItems(entries)).toEqual(expected);
    expect(streamItems([entries[0]])).toEqual([expected[0]]);
    expect(streamItems(new Map([['run:1', entries]]))).toEqual(expected);
    expect(streamItems(null)).toEqual([]);
  });

  it('skips entries deleted under a pending reference (nil fields)', () => {
    expect(streamItems([['1-0', null]])).toEqual([]);
  });
});

describe('parseRunRequest', () => {
  const fields = {
    runId: 'r1',
    threadId: 't1',
    position: '3',
    kind: 'call',
    input: '[]',
    options: '{"maxIters":2}',
  };

  it('reads a request entry', () => {
    expect(parseRunRequest('9-0', fields)).toMatchObject({
      entryId: '9-0',
      runId: 'r1',
      threadId: 't1',
      position: 3,
      kind: 'call',
      options: { maxIters: 2 },
    });
  });

  it('names what is wrong with an entry that is not a request', () => {
    expect(() => parseRunRequest('9-0', { ...fields, position: '0' })).toThrow(
      /entry 9-0 is not a run request: its position is not a positive integer/,
    );
    expect(() => parseRunRequest('9-0', { ...fields, kind: 'dance' })).toThrow(/kind "dance"/);
    expect(() => parseRunRequest('9-0', { ...fields, input: '{' })).toThrow(/not JSON/);
  });
});
