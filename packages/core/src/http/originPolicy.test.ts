import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors.js';
import { OriginPolicy } from './originPolicy.js';

const req = (headers: Record<string, string>): IncomingMessage =>
  ({ headers }) as unknown as IncomingMessage;

describe('OriginPolicy', () => {
  it('allows a request without Origin and a page of the same host, whatever the list', () => {
    const policy = new OriginPolicy(undefined);
    expect(policy.verdict(req({ host: '127.0.0.1:8787' }))).toBe('none');
    expect(policy.verdict(req({ host: '127.0.0.1:8787', origin: 'http://127.0.0.1:8787' }))).toBe(
      'same',
    );
    expect(policy.verdict(req({ host: 'LocalHost:8787', origin: 'http://localhost:8787' }))).toBe(
      'same',
    );
  });

  it('forbids every other origin by default: another port, another host, null, garbage, no Host', () => {
    const policy = new OriginPolicy(undefined);
    for (const origin of [
      'http://127.0.0.1:9999',
      'http://evil.example',
      'null',
      'not a url',
      'file:///x',
    ]) {
      expect(policy.verdict(req({ host: '127.0.0.1:8787', origin })), origin).toBe('forbidden');
    }
    expect(policy.verdict(req({ origin: 'http://127.0.0.1:8787' }))).toBe('forbidden');
  });

  it('allows the listed origins, compared as origins', () => {
    const policy = new OriginPolicy(['https://App.example/', 'http://localhost:5173']);
    const at = (origin: string) => policy.verdict(req({ host: 'api.example', origin }));
    expect(at('https://app.example')).toBe('allowed');
    expect(at('https://app.example:443')).toBe('allowed');
    expect(at('http://localhost:5173')).toBe('allowed');
    expect(at('http://app.example')).toBe('forbidden');
    expect(at('http://localhost:5174')).toBe('forbidden');
  });

  it('asks a function about each other origin, with the header as sent', () => {
    const asked: string[] = [];
    const policy = new OriginPolicy((origin) => {
      asked.push(origin);
      return origin === 'null';
    });
    expect(policy.verdict(req({ host: 'a', origin: 'null' }))).toBe('allowed');
    expect(policy.verdict(req({ host: 'a', origin: 'http://b' }))).toBe('forbidden');
    expect(policy.verdict(req({ host: 'a', origin: 'http://a' }))).toBe('same');
    expect(asked).toEqual(['null', 'http://b']);
  });

  it('rejects a list entry that is not an origin, and a value that is not a list or function', () => {
    for (const entry of ['app.example', 'https://app.example/x', 'https://a@app.example', '*']) {
      expect(() => new OriginPolicy([entry]), entry).toThrow(InvalidArgumentError);
    }
    expect(() => new OriginPolicy('https://app.example' as never)).toThrow(
      'allowedOrigins must be an array of origins or a function',
    );
  });
});
