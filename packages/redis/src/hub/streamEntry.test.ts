import { assistantMsg, InvalidArgumentError } from '@rxagent/core';
import { unfrozenPath } from '@rxagent/core/testing';
import { describe, expect, it } from 'vitest';
import { entryFields, parseEntries } from './streamEntry.js';

const msg = assistantMsg('hello', { name: 'alice' });

describe('parseEntries', () => {
  it('reads an XREAD reply (RESP2) in order', () => {
    const reply = [
      [
        'topic',
        [
          ['1-0', entryFields('alice', msg)],
          ['2-0', entryFields('', msg)],
        ],
      ],
    ];
    expect(parseEntries(reply, 'topic')).toEqual([
      { id: '1-0', from: 'alice', msg },
      { id: '2-0', from: '', msg },
    ]);
  });

  it('delivers each Msg deeply frozen, like a local hub', () => {
    const [entry] = parseEntries([['topic', [['1-0', entryFields('alice', msg)]]]], 'topic');
    expect(unfrozenPath((entry as { msg: unknown }).msg, 'msg')).toBeUndefined();
  });

  it('reads a RESP3 map reply and an empty (null) reply', () => {
    const reply = new Map([['topic', [['5-1', entryFields('bob', msg)]]]]);
    expect(parseEntries(reply, 'topic')).toEqual([{ id: '5-1', from: 'bob', msg }]);
    expect(parseEntries(null, 'topic')).toEqual([]);
  });

  it('returns a foreign entry with its id and the reason, so delivery can skip it', () => {
    const bad = (fields: string[]) => parseEntries([['t', [['9-0', fields]]]], 't')[0];
    expect(bad(['other', 'x'])).toMatchObject({
      id: '9-0',
      error: expect.any(InvalidArgumentError),
    });
    expect(
      String((bad(['v', '1', 'from', 'a', 'msg', '{nope']) as { error: Error }).error),
    ).toContain('its "msg" field is not JSON');
    const notMsg = JSON.stringify({ ...msg, role: 'robot' });
    expect(
      String((bad(['v', '1', 'from', 'a', 'msg', notMsg]) as { error: Error }).error),
    ).toContain('is not a Msg');
    expect(
      String((bad(['v', '1', 'msg', JSON.stringify(msg)]) as { error: Error }).error),
    ).toContain('no "from" field');
  });

  it('throws for a reply that is not a stream reply at all', () => {
    expect(() => parseEntries([['t', [42]]], 't')).toThrow(InvalidArgumentError);
  });
});
