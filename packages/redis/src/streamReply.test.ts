import { describe, expect, it } from 'vitest';
import { entriesOfRange, entriesOfStreams, fieldRecord, streamItems } from './streamReply.js';

const entries = [
  ['1-0', ['seq', '0', 'event', '{}']],
  ['2-0', ['seq', '1', 'event', '{}']],
];
const expected = [
  { id: '1-0', fields: { seq: '0', event: '{}' } },
  { id: '2-0', fields: { seq: '1', event: '{}' } },
];

describe('stream replies', () => {
  it('reads XREAD replies: entries under their stream key, RESP2 or RESP3', () => {
    expect(streamItems(entriesOfStreams([['run:1', entries]]))).toEqual(expected);
    expect(streamItems(entriesOfStreams(new Map([['run:1', entries]])))).toEqual(expected);
    expect(streamItems(entriesOfStreams({ 'run:1': entries }))).toEqual(expected);
    expect(streamItems(entriesOfStreams(null))).toEqual([]);
  });

  it('reads XRANGE replies, one entry as well as many', () => {
    expect(streamItems(entriesOfRange(entries))).toEqual(expected);
    // One entry of two fields has the shape of an XREAD reply of one stream: the caller's
    // command, not the shape, says which it is.
    expect(streamItems(entriesOfRange([['7-0', ['seq', '3']]]))).toEqual([
      { id: '7-0', fields: { seq: '3' } },
    ]);
    expect(streamItems(entriesOfRange(null))).toEqual([]);
  });

  it('reads an XREADGROUP reply whose stream has no entries left as no entries', () => {
    expect(streamItems(entriesOfStreams([['queue', []]]))).toEqual([]);
  });

  it('skips entries deleted under a pending reference (nil fields)', () => {
    expect(streamItems(entriesOfRange([['1-0', null], entries[0]]))).toEqual([expected[0]]);
  });

  it('keeps a field named __proto__ as a field', () => {
    const fields = fieldRecord(['__proto__', 'x', 'a', '1']);
    expect(Object.getPrototypeOf(fields)).toBeNull();
    expect(Object.entries(fields)).toEqual([
      ['__proto__', 'x'],
      ['a', '1'],
    ]);
    expect(fieldRecord(new Map([['a', '1']]))).toEqual({ a: '1' });
  });
});
