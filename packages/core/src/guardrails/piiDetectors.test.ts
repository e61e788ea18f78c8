import { describe, expect, it } from 'vitest';
import { findPii, luhnChecks, redactPii } from './piiDetectors.js';

const kinds = (text: string) => findPii(text).map((m) => m.kind);

describe('findPii', () => {
  it.each([
    ['an e-mail address', 'write to jane.doe+tag@mail.example.co.uk today', 'email'],
    ['a US phone number', 'call (415) 555-0134 now', 'phone'],
    ['a dashed phone number', 'call 415-555-0134', 'phone'],
    ['an international phone number', 'ring +44 20 7946 0958', 'phone'],
    ['a compact international number', 'ring +33612345678', 'phone'],
    ['a Visa test card', 'card 4111 1111 1111 1111 please', 'card_number'],
    ['a dashed Mastercard', 'card 5555-5555-5555-4444', 'card_number'],
    ['an Amex card', 'card 378282246310005', 'card_number'],
    ['a US SSN', 'ssn 123-45-6789', 'national_id'],
    ['a UK NI number', 'NI: AB 12 34 56 C', 'national_id'],
    ['a Spanish DNI', 'DNI 12345678Z', 'national_id'],
    ['an OpenAI-style key', 'key sk-proj-abcdefghijklmnopqrstuvwx1234', 'api_key'],
    ['an AWS key id', 'id AKIAIOSFODNN7EXAMPLE', 'api_key'],
    ['a token: value', 'token: 9f8e7d6c5b4a3210', 'token'],
    ['a password= value', 'password=hunter2hunter2', 'token'],
    ['a bearer token', 'Authorization: Bearer abc.def-123456', 'token'],
    ['a loopback URL', 'see http://127.0.0.1:8080/admin', 'internal_url'],
    ['a private-range URL', 'see https://10.2.3.4/wiki', 'internal_url'],
    ['an .internal host', 'see https://grafana.corp.internal/d/1', 'internal_url'],
    ['a single-label host', 'see http://wiki/Onboarding', 'internal_url'],
  ])('detects %s', (_, text, kind) => {
    expect(kinds(text)).toEqual([kind]);
  });

  it.each([
    ['sixteen digits failing the Luhn check', 'order 4111 1111 1111 1112'],
    ['an ISO date', 'on 2026-12-06 at noon'],
    ['an amount and a year', 'paid 1,250.00 EUR in 2025'],
    ['an order number', 'order #123456'],
    ['an SSN with area 000', 'id 000-12-3456'],
    ['a DNI with the wrong letter', 'DNI 12345678A'],
    ['a public URL', 'see https://example.com/docs and http://openai.com'],
    ['ordinary words about tokens', 'the token count was high'],
    ['a short version number', 'version 1.2.3'],
    ['a repeated digit run', '0000 0000 0000 0000'],
  ])('leaves %s', (_, text) => {
    expect(kinds(text)).toEqual([]);
  });

  it('redacts each detection by kind and keeps the rest', () => {
    const text = 'Jane (jane@example.com, +1 415 555 0134) paid with 4242 4242 4242 4242.';
    expect(redactPii(text, findPii(text))).toBe(
      'Jane ([REDACTED:email], [REDACTED:phone]) paid with [REDACTED:card_number].',
    );
  });

  it('checks 10 KB of text in well under a millisecond per kilobyte', () => {
    const text = 'Lorem ipsum dolor sit amet, 42 consectetur. '.repeat(240);
    const start = performance.now();
    for (let i = 0; i < 20; i++) findPii(text);
    // Generous: a linear scan; a regex that backtracked would take seconds.
    expect((performance.now() - start) / 20).toBeLessThan(50);
  });
});

describe('luhnChecks', () => {
  it('accepts valid numbers and rejects others', () => {
    expect(luhnChecks('4539 1488 0343 6467')).toBe(true);
    expect(luhnChecks('4539 1488 0343 6468')).toBe(false);
    expect(luhnChecks('123')).toBe(false);
  });
});
