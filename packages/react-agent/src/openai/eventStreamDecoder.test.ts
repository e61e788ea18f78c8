import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EventStreamDecoder, MAX_LINE_BYTES } from './eventStreamDecoder.js';

type Decoded = [data: string, event: string | undefined];

/** Decodes `chunks` (text or bytes) in order and returns every event dispatched. */
function decode(...chunks: (string | Uint8Array)[]): Decoded[] {
  const events: Decoded[] = [];
  const decoder = new EventStreamDecoder((data, event) => events.push([data, event]));
  for (const chunk of chunks) {
    decoder.push(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk);
  }
  decoder.end();
  return events;
}

/** The bytes cut at every `size` bytes, as plain Uint8Arrays (not Buffers). */
function cut(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(new Uint8Array(bytes.slice(i, i + size)));
  return out;
}

const fixtures = new URL('../../test/fixtures/dialects/', import.meta.url);

describe('EventStreamDecoder', () => {
  it('dispatches the data of each event at its blank line', () => {
    expect(decode('data: {"a":1}\n\ndata: [DONE]\n\n')).toEqual([
      ['{"a":1}', undefined],
      ['[DONE]', undefined],
    ]);
  });

  it.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['CR', '\r'],
  ])('ends lines with %s', (_, eol) => {
    expect(decode(`data: x${eol}${eol}data: y${eol}${eol}`)).toEqual([
      ['x', undefined],
      ['y', undefined],
    ]);
  });

  it('reads a CRLF split between two chunks as one line end', () => {
    expect(decode('data: x\r', '\n\r', '\ndata: y\r\n\r\n')).toEqual([
      ['x', undefined],
      ['y', undefined],
    ]);
  });

  it('joins data lines with a newline and drops only one space after the colon', () => {
    expect(decode('data:a\ndata:  b\ndata\n\n')).toEqual([['a\n b\n', undefined]]);
  });

  it('passes the event name, and resets it after each event', () => {
    expect(decode('event: error\ndata: {}\n\ndata: x\n\n')).toEqual([
      ['{}', 'error'],
      ['x', undefined],
    ]);
  });

  it('ignores comments, id, retry and unknown fields, and events without data', () => {
    expect(
      decode(': keep-alive\n\nid: 7\nretry: 10\nfoo: bar\ndata: x\n\nevent: ping\n\ndata:\n\n'),
    ).toEqual([['x', undefined]]);
  });

  it('skips a leading byte-order mark', () => {
    expect(decode(new Uint8Array([0xef, 0xbb, 0xbf]), 'data: x\n\n')).toEqual([['x', undefined]]);
  });

  it('discards an unfinished event at the end of the body', () => {
    expect(decode('data: x\n\ndata: cut')).toEqual([['x', undefined]]);
    expect(decode('data: x\n\ndata: y\n')).toEqual([['x', undefined]]);
  });

  it('decodes a character whose UTF-8 bytes are split between chunks', () => {
    const bytes = new TextEncoder().encode('data: "héllo 🌍"\n\n');
    expect(decode(...cut(bytes, 1))).toEqual([['"héllo 🌍"', undefined]]);
  });

  it('reads a 5 MB line arriving in 64 KB chunks whole', () => {
    const big = 'y'.repeat(5 * 1024 * 1024);
    const events = decode(...cut(new TextEncoder().encode(`data: ${big}\n\n`), 64 * 1024));
    expect(events).toHaveLength(1);
    expect(events[0]?.[0].length).toBe(big.length);
  });

  it('throws a ModelError when a line grows past maxLineBytes', () => {
    const decoder = new EventStreamDecoder(() => {}, 1_000);
    decoder.push(new TextEncoder().encode(`data: ${'x'.repeat(600)}`));
    expect(() => decoder.push(new TextEncoder().encode('y'.repeat(600)))).toThrow(
      /more than 1000 bytes without ending it/,
    );
    expect(MAX_LINE_BYTES).toBe(32 * 1024 * 1024);
  });

  it('reads many lines without a colon in one chunk as fields with empty values', () => {
    expect(decode(`${'x\n'.repeat(100_000)}data: y\n\n`)).toEqual([['y', undefined]]);
  });

  it.each(readdirSync(fixtures).filter((name) => name.endsWith('.sse')))(
    'decodes the recorded stream %s the same however it is cut',
    (name) => {
      const bytes = new Uint8Array(readFileSync(new URL(name, fixtures)));
      const whole = decode(bytes);
      expect(whole.length).toBeGreaterThan(1);
      for (const size of [1, 2, 3, 7, 64, 1000]) expect(decode(...cut(bytes, size))).toEqual(whole);
      const crlf = new TextEncoder().encode(new TextDecoder().decode(bytes).replace(/\n/g, '\r\n'));
      for (const size of [1, 5, 1000]) expect(decode(...cut(crlf, size))).toEqual(whole);
    },
  );

  it('throws what the handler throws, from push', () => {
    const decoder = new EventStreamDecoder(() => {
      throw new SyntaxError('bad');
    });
    expect(() => decoder.push(new TextEncoder().encode('data: x\n\n'))).toThrow('bad');
  });
});
