import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors.js';
import { decodeSessionFileName, encodeSessionKey } from './sessionKey.js';

const encode = (key: string): string => encodeSessionKey(key, 'test');

describe('encodeSessionKey', () => {
  it('keeps lower-case letters, digits, "_" and "-"', () => {
    expect(encode('user_42-a')).toBe('user_42-a');
  });

  it('escapes upper-case letters so names differing only in case stay distinct files', () => {
    expect(encode('Alice')).toBe('%41lice');
    expect(encode('Alice').toLowerCase()).not.toBe(encode('alice').toLowerCase());
  });

  it('escapes path separators, dots and "%" so a key never leaves the directory', () => {
    const name = encode('../../etc/passwd');
    expect(name).toBe('%2E%2E%2F%2E%2E%2Fetc%2Fpasswd');
    expect(name).not.toMatch(/[./\\]/);
    expect(encode('a\\b%c')).toBe('a%5Cb%25c');
  });

  it('encodes each UTF-8 byte of other characters', () => {
    expect(encode('é')).toBe('%C3%A9');
    expect(encode('a b')).toBe('a%20b');
  });

  it('escapes Windows device names', () => {
    expect(encode('con')).toBe('%63on');
    expect(encode('lpt1')).toBe('%6Cpt1');
    expect(encode('console')).toBe('console');
  });

  it('rejects a key too long for a file name', () => {
    expect(() => encode('x'.repeat(250))).not.toThrow();
    expect(() => encode('x'.repeat(251))).toThrow(InvalidArgumentError);
    expect(() => encode('é'.repeat(50))).toThrow(/too long for a file name/);
  });
});

describe('decodeSessionFileName', () => {
  it('round-trips the names encodeSessionKey produces', () => {
    for (const key of ['alice', 'Alice', '../x', 'ünï 🎉', 'con', '%', '\uFEFF']) {
      expect(decodeSessionFileName(`${encode(key)}.json`)).toBe(key);
    }
  });

  it('skips temp files, other extensions and non-canonical names', () => {
    expect(decodeSessionFileName('.0b1c2d.tmp')).toBeUndefined();
    expect(decodeSessionFileName('alice.txt')).toBeUndefined();
    expect(decodeSessionFileName('Alice.json')).toBeUndefined();
    expect(decodeSessionFileName('%61lice.json')).toBeUndefined();
    expect(decodeSessionFileName('%c3%a9.json')).toBeUndefined();
    expect(decodeSessionFileName('con.json')).toBeUndefined();
    expect(decodeSessionFileName('%FF.json')).toBeUndefined();
    expect(decodeSessionFileName('.json')).toBeUndefined();
  });
});
