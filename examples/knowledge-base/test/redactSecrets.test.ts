import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../src/redactSecrets.js';

describe('redactSecrets', () => {
  it.each([
    ['key sk-live-51HqLyjWDarjtT1zdp7dc0aB3x9 here', 'key [REDACTED:api-key] here'],
    ['sk-proj-abcdefghijklmnopqrstuv', '[REDACTED:api-key]'],
    [
      'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.c2Fs.Zm9v',
      'Authorization: Bearer [REDACTED:token]',
    ],
    ['token ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'token [REDACTED:api-key]'],
    ['AKIAIOSFODNN7EXAMPLE', '[REDACTED:api-key]'],
    [
      'see https://intranet.example.internal/finance/calc?team=sales.',
      'see [REDACTED:internal-url].',
    ],
    ['(http://wiki.corp.example.internal/ops)', '([REDACTED:internal-url])'],
    ['http://10.0.3.7:8080/admin', '[REDACTED:internal-url]'],
    ['http://192.168.1.20/', '[REDACTED:internal-url]'],
  ])('redacts %s', (input, expected) => {
    expect(redactSecrets(input).text).toBe(expected);
  });

  it('leaves public URLs and ordinary words alone', () => {
    const text = 'See https://docs.example.com/sales and ask-the-team about sk-8 skills.';
    expect(redactSecrets(text)).toEqual({ text, count: 0 });
  });

  it('counts every redaction', () => {
    expect(redactSecrets('sk-live-aaaaaaaaaaaaaaaaaaaa and Bearer abc.def').count).toBe(2);
  });
});
