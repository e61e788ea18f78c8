import OpenAI, { BadRequestError, InternalServerError, RateLimitError } from 'openai';
import { describe, expect, it, vi } from 'vitest';
import { DirectRoutes, directRoute, statusError } from './directRoute.js';

const client = () =>
  new OpenAI({
    apiKey: 'sk-test',
    baseURL: 'http://models.local/v1',
    organization: 'org-1',
    defaultHeaders: { 'X-Team': 'search' },
    maxRetries: 0,
  });

describe('directRoute', () => {
  it('takes the URL and every header the SDK sends with a chat completion', async () => {
    const route = await directRoute(client(), fetch, 30_000);
    expect(route.url).toBe('http://models.local/v1/chat/completions');
    const headers = Object.fromEntries(route.headers);
    expect(headers).toMatchObject({
      authorization: 'Bearer sk-test',
      'content-type': 'application/json',
      'openai-organization': 'org-1',
      'x-team': 'search',
      'x-stainless-timeout': '30',
    });
    expect(headers['user-agent']).toMatch(/^OpenAI\/JS /);
    expect(route.fetch).toBe(fetch);
  });
});

describe('DirectRoutes', () => {
  it('asks the SDK once and gives the same route from then on, at once', async () => {
    const sdk = client();
    const build = vi.spyOn(sdk, 'buildRequest');
    const routes = new DirectRoutes(() => directRoute(sdk, fetch, 1_000));
    const first = await routes.get();
    expect(routes.get()).toBe(first);
    expect(build).toHaveBeenCalledTimes(1);
  });

  it('does not keep a failed build: the next request asks again', async () => {
    const sdk = client();
    vi.spyOn(sdk, 'buildRequest').mockRejectedValueOnce(new Error('token service down'));
    const routes = new DirectRoutes(() => directRoute(sdk, fetch, 1_000));
    await expect(routes.get()).rejects.toThrow('token service down');
    await expect(routes.get()).resolves.toMatchObject({ url: expect.stringContaining('/chat') });
  });
});

describe('statusError', () => {
  it("gives the SDK's error class with the server's JSON error and request id", async () => {
    const response = new Response(JSON.stringify({ error: { message: 'slow down' } }), {
      status: 429,
      headers: { 'x-request-id': 'req_42', 'retry-after': '2' },
    });
    const error = await statusError(response);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.status).toBe(429);
    expect(error.message).toContain('slow down');
    expect(error.requestID).toBe('req_42');
    expect(error.headers?.get('retry-after')).toBe('2');
  });

  it("reads the first error of a JSON array of errors (Gemini's format)", async () => {
    const body = [
      {
        error: {
          code: 400,
          message: 'Invalid JSON payload: unknown field "x"',
          status: 'INVALID_ARGUMENT',
        },
      },
    ];
    const error = await statusError(new Response(JSON.stringify(body), { status: 400 }));
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.message).toBe('400 Invalid JSON payload: unknown field "x"');
    expect(error.error).toEqual(body[0]!.error);
  });

  it('keeps a text body as the message, read up to 64 KB of it', async () => {
    const page = `<html>${'Bad gateway. '.repeat(100_000)}</html>`;
    const error = await statusError(new Response(page, { status: 502 }));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.message).toContain('<html>Bad gateway.');
    expect(error.message.length).toBeLessThan(70 * 1024);
  });
});
