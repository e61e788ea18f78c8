import { describe, expect, it } from 'vitest';
import { redactSecrets } from './redactSecrets.js';

const pem = [
  '-----BEGIN RSA PRIVATE KEY-----',
  'MIIEowIBAAKCAQEA1c7+9z5Pad7OejecsQ0bu3aozN3tihPmljnnudb9G3HECdnH',
  'lWu2/a1gB9JW5TBQ+AVpum9Okx7KfqkfBKL9mcHgSL0yWMdjMfNOqNtrQqKlN4kE',
  '-----END RSA PRIVATE KEY-----',
].join('\n');

describe('redactSecrets', () => {
  it.each([
    ['key sk-live-51HqLyjWDarjtT1zdp7dc0aB3x9 here', 'key [REDACTED:api-key] here'],
    ['sk-proj-abcdefghijklmnopqrstuv', '[REDACTED:api-key]'],
    ['OPENAI_API_KEY=sk-T3BlbkFJ4a1b2c3d4e5f6g7h8i9j0', 'OPENAI_API_KEY=[REDACTED:api-key]'],
    [
      'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.c2Fs.Zm9v',
      'Authorization: Bearer [REDACTED:token]',
    ],
    ['token ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'token [REDACTED:api-key]'],
    [`pat github_pat_${'A1b2'.repeat(12)}`, 'pat [REDACTED:api-key]'],
    ['AKIAIOSFODNN7EXAMPLE', '[REDACTED:api-key]'],
    ['slack xoxb-123456789012-abcdefghij', 'slack [REDACTED:api-key]'],
    [
      'jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
      'jwt [REDACTED:jwt]',
    ],
    [`key:\n${pem}\ndone`, 'key:\n[REDACTED:private-key]\ndone'],
    [
      '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC (cut)',
      '[REDACTED:private-key]',
    ],
  ])('redacts %s', (input, expected) => {
    expect(redactSecrets(input).text).toBe(expected);
  });

  it('leaves ordinary words, identifiers and public text alone', () => {
    const text =
      'See https://docs.example.com/sales and ask-the-team about sk-8 skills, sk-learn-compatible-preprocessing, a bearer of news, Bearer tokens, and task-management.';
    expect(redactSecrets(text)).toEqual({ text, count: 0 });
  });

  it('counts every redaction', () => {
    expect(redactSecrets('sk-live-aaaaaaaaaaaaaaaaaaaa and Bearer abc.def').count).toBe(2);
  });

  it('redacts exact secret values labelled by name, longest first, ignoring very short ones', () => {
    const { text, count } = redactSecrets('db=postgres://u:hunter22@db/x pin=1234 pw=hunter22', {
      secrets: [
        ['DB_PASSWORD', 'hunter22'],
        ['DATABASE_URL', 'postgres://u:hunter22@db/x'],
        ['PIN', '1234'],
      ],
    });
    expect(text).toBe('db=[REDACTED:DATABASE_URL] pin=1234 pw=[REDACTED:DB_PASSWORD]');
    expect(count).toBe(2);
  });

  it('applies extra patterns, global or not', () => {
    const { text, count } = redactSecrets('see http://wiki.corp/a and http://wiki.corp/b', {
      patterns: [{ label: 'internal-url', pattern: /http:\/\/wiki\.corp\/\w+/ }],
    });
    expect(text).toBe('see [REDACTED:internal-url] and [REDACTED:internal-url]');
    expect(count).toBe(2);
  });
});
