import { redactSecrets } from '@rxagent/core';
import { describe, expect, it } from 'vitest';
import { INTERNAL_URL } from '../src/internalUrl.js';

const redact = (text: string) => redactSecrets(text, { patterns: [INTERNAL_URL] });

describe('INTERNAL_URL', () => {
  it.each([
    [
      'see https://intranet.example.internal/finance/calc?team=sales.',
      'see [REDACTED:internal-url].',
    ],
    ['(http://wiki.corp.example.internal/ops)', '([REDACTED:internal-url])'],
    ['http://10.0.3.7:8080/admin', '[REDACTED:internal-url]'],
    ['http://192.168.1.20/', '[REDACTED:internal-url]'],
  ])('redacts %s', (input, expected) => {
    expect(redact(input).text).toBe(expected);
  });

  it('leaves public URLs alone', () => {
    const text = 'See https://docs.example.com/sales and http://8.8.8.8/ for details.';
    expect(redact(text)).toEqual({ text, count: 0 });
  });

  it('is applied together with the built-in secret shapes', () => {
    expect(redact('key sk-live-51HqLyjWDarjtT1zdp7dc0aB3x9 at http://10.1.2.3/x').text).toBe(
      'key [REDACTED:api-key] at [REDACTED:internal-url]',
    );
  });
});
