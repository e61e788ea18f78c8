import { describe, expect, it } from 'vitest';
import { parseRunRequest } from './runRequest.js';

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
