import { isAbortError, ModelError } from '@rxagent/core';
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { describe, expect, it } from 'vitest';
import { isRetryableModelError, retryAfterOf, toModelError } from './toModelError.js';

const context = { model: 'gpt-x', baseURL: 'http://127.0.0.1:9/v1', timeoutMs: 1234 };

function httpError(status: number, message: string, headers: Record<string, string> = {}) {
  return APIError.generate(status, { error: { message } }, undefined, new Headers(headers));
}

function modelError(error: unknown): ModelError {
  const mapped = toModelError(error, context);
  expect(mapped).toBeInstanceOf(ModelError);
  return mapped as ModelError;
}

describe('toModelError', () => {
  it.each([
    [429, true],
    [500, true],
    [503, true],
    [400, false],
    [401, false],
    [404, false],
    [408, false],
    [422, false],
  ])('maps HTTP %i with retryable %s', (status, retryable) => {
    const error = modelError(httpError(status, 'server says no'));
    expect(error.status).toBe(status);
    expect(error.retryable).toBe(retryable);
    expect(error.message).toContain(`HTTP ${status}: server says no`);
    expect(error.message).toContain('model "gpt-x" at http://127.0.0.1:9/v1');
    expect(error.cause).toBeInstanceOf(APIError);
  });

  it('honours x-should-retry: false on a status that is otherwise retried', () => {
    const error = modelError(httpError(500, 'script exhausted', { 'x-should-retry': 'false' }));
    expect(error.retryable).toBe(false);
    expect(error.status).toBe(500);
  });

  it('says what to do for a bad key and an unknown model', () => {
    expect(modelError(httpError(401, 'bad key')).message).toContain('OPENAI_API_KEY');
    expect(modelError(httpError(404, 'no such model')).message).toContain('OPENAI_MODEL');
  });

  it('maps a timeout to a retryable error naming timeoutMs', () => {
    const error = modelError(new APIConnectionTimeoutError());
    expect(error.retryable).toBe(true);
    expect(error.status).toBeUndefined();
    expect(error.message).toContain('1234 ms');
  });

  it('maps a connection failure to a retryable error naming its innermost cause', () => {
    const socket = new Error('connect ECONNREFUSED 127.0.0.1:9');
    const cause = new TypeError('fetch failed', { cause: socket });
    const error = modelError(new APIConnectionError({ cause }));
    expect(error.retryable).toBe(true);
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('maps a cut stream (undici TypeError) to a retryable error', () => {
    const error = modelError(new TypeError('terminated'));
    expect(error.retryable).toBe(true);
    expect(error.message).toContain('terminated');
  });

  it.each([
    ['fetch failed', new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') })],
    ['a reset socket', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
    ['socket hang up', Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })],
    [
      'a premature close',
      Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }),
    ],
    ['an aborted response', Object.assign(new Error('aborted'), { code: 'ECONNRESET' })],
    ['body terminated', new TypeError('terminated', { cause: new Error('other side closed') })],
  ])(
    'maps a network failure (%s) to a retryable error saying the connection failed',
    (_, cause) => {
      const error = modelError(cause);
      expect(error.retryable).toBe(true);
      expect(error.message).toMatch(/connection/);
    },
  );

  it('keeps a programming TypeError non-retryable, with its real message', () => {
    const error = modelError(
      new TypeError("Cannot read properties of undefined (reading 'content')"),
    );
    expect(error.retryable).toBe(false);
    expect(error.message).toContain("Cannot read properties of undefined (reading 'content')");
    expect(error.message).not.toMatch(/connection was cut/);
  });

  it('reports a chunk that is not JSON as malformed data, not retryable', () => {
    const error = modelError(new SyntaxError('Unexpected token < in JSON at position 0'));
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/not valid JSON/);
  });

  it('quotes at most 500 characters of an error page and keeps the status and request id', () => {
    const page = `<html><body>${'Bad gateway. '.repeat(16_000)}</body></html>`;
    const apiError = APIError.generate(
      502,
      undefined,
      page,
      new Headers({ 'x-request-id': 'req_123' }),
    );
    const error = modelError(apiError);
    expect(error.message.length).toBeLessThan(900);
    expect(error.message).toContain('HTTP 502');
    expect(error.message).toContain('req_123');
    expect(error.status).toBe(502);
  });

  it('says where a redirect points', () => {
    const error = modelError(
      APIError.generate(307, undefined, '', new Headers({ location: 'https://elsewhere.test/v1' })),
    );
    expect(error.message).toContain('HTTP 307');
    expect(error.message).toContain('https://elsewhere.test/v1');
    expect(error.retryable).toBe(false);
  });

  it('maps an error event inside the stream to a non-retryable error', () => {
    const error = modelError(
      new APIError(undefined, { message: 'context too long' }, undefined, undefined),
    );
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('context too long');
  });

  it('maps anything else to a non-retryable error', () => {
    expect(modelError(new SyntaxError('Unexpected token')).retryable).toBe(false);
    expect(modelError('a string').message).toContain('a string');
  });

  it('turns an SDK abort into an AbortError and passes ModelErrors through', () => {
    const aborted = toModelError(new APIUserAbortError(), context);
    expect(aborted.name).toBe('AbortError');
    expect(isAbortError(aborted)).toBe(true);
    const existing = new ModelError('x');
    expect(toModelError(existing, context)).toBe(existing);
  });
});

describe('retryAfterOf', () => {
  it("reads the retry-after of the ModelError's SDK cause", () => {
    const error = toModelError(httpError(429, 'slow down', { 'retry-after': '2' }), context);
    expect(retryAfterOf(error)).toBe(2000);
    expect(retryAfterOf(toModelError(httpError(500, 'x'), context))).toBeUndefined();
    expect(retryAfterOf(new Error('x'))).toBeUndefined();
  });
});

describe('isRetryableModelError', () => {
  it('is true only for a retryable ModelError', () => {
    expect(isRetryableModelError(new ModelError('x', { retryable: true }))).toBe(true);
    expect(isRetryableModelError(new ModelError('x', { status: 400 }))).toBe(false);
    expect(isRetryableModelError(new Error('x'))).toBe(false);
  });
});
