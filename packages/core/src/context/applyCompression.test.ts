import { describe, expect, it } from 'vitest';
import { userMsg } from '../message/msg.js';
import { applyCompression } from './applyCompression.js';
import { dropMarkerMsg } from './compressedMsg.js';

describe('applyCompression', () => {
  const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((text) => userMsg(text));
  const marker = dropMarkerMsg({ count: 2, tokensBefore: 10, tokensAfter: 5 });

  it('puts the summary in place of the replaced prefix and keeps messages added since', () => {
    expect(applyCompression([a!, b!, c!, d!], [a!, b!], marker)).toEqual([marker, c, d]);
  });

  it('returns undefined when memory no longer starts with the replaced messages', () => {
    expect(applyCompression([b!, c!], [a!, b!], marker)).toBeUndefined();
    expect(applyCompression([a!], [a!, b!], marker)).toBeUndefined();
    expect(applyCompression([a!], [], marker)).toBeUndefined();
  });
});
