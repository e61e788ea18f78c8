import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { admitJsonPost } from './admitJsonPost.js';
import { OriginPolicy } from './originPolicy.js';

const req = (method: string, headers: Record<string, string>): IncomingMessage =>
  ({ method, headers: { host: 'api.example', ...headers } }) as unknown as IncomingMessage;

/** A response that records the headers set, the status written and whether it ended. */
function response() {
  const headers: Record<string, string> = {};
  const answer = { status: undefined as number | undefined, ended: false, headers };
  const res = {
    setHeader: (name: string, value: string) => {
      headers[name] = value;
    },
    writeHead: (status: number, more: Record<string, string>) => {
      answer.status = status;
      Object.assign(headers, more);
    },
    end: () => {
      answer.ended = true;
    },
  } as unknown as ServerResponse;
  return { res, answer };
}

const origins = new OriginPolicy(['https://app.example']);
const json = { 'content-type': 'application/json' };

describe('admitJsonPost', () => {
  it('admits a JSON POST without Origin, from its own page or an allowed one (with CORS)', () => {
    const bare = response();
    expect(admitJsonPost(req('POST', json), bare.res, { origins })).toEqual({ kind: 'admitted' });
    expect(bare.answer.headers).toEqual({});
    const own = response();
    const same = req('POST', { ...json, origin: 'http://api.example' });
    expect(admitJsonPost(same, own.res, { origins }).kind).toBe('admitted');
    expect(own.answer.headers).toEqual({ vary: 'origin' });
    const app = response();
    const allowed = req('POST', { ...json, origin: 'https://app.example' });
    expect(admitJsonPost(allowed, app.res, { origins }).kind).toBe('admitted');
    expect(app.answer.headers).toEqual({
      vary: 'origin',
      'access-control-allow-origin': 'https://app.example',
    });
  });

  it('refuses a foreign origin 403 before looking at the method or body, without CORS headers', () => {
    const { res, answer } = response();
    const foreign = req('OPTIONS', {
      origin: 'https://evil.example',
      'access-control-request-method': 'POST',
    });
    expect(admitJsonPost(foreign, res, { origins })).toEqual({
      kind: 'refused',
      status: 403,
      origin: 'https://evil.example',
    });
    expect(answer).toEqual({ status: undefined, ended: false, headers: { vary: 'origin' } });
  });

  it("answers an allowed origin's preflight 204, echoing requested header names only", () => {
    const asked = response();
    const preflight = (headers: Record<string, string>) =>
      req('OPTIONS', {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        ...headers,
      });
    expect(
      admitJsonPost(
        preflight({ 'access-control-request-headers': 'content-type, x-trace' }),
        asked.res,
        {
          origins,
        },
      ),
    ).toEqual({ kind: 'answered' });
    expect(asked.answer).toMatchObject({ status: 204, ended: true });
    expect(asked.answer.headers).toMatchObject({
      'access-control-allow-methods': 'POST',
      'access-control-allow-headers': 'content-type, x-trace',
      'access-control-max-age': '600',
    });
    const odd = response();
    admitJsonPost(preflight({ 'access-control-request-headers': 'a\r\nb: c' }), odd.res, {
      origins,
      preflightHeaders: 'content-type, a2a-version',
    });
    expect(odd.answer.headers['access-control-allow-headers']).toBe('content-type, a2a-version');
  });

  it('refuses another method 405 with the Allow header given', () => {
    const plain = response();
    expect(admitJsonPost(req('GET', {}), plain.res, { origins })).toEqual({
      kind: 'refused',
      status: 405,
    });
    expect(plain.answer.headers).toEqual({ allow: 'POST' });
    const card = response();
    admitJsonPost(req('PUT', json), card.res, { origins, allow: 'GET, POST' });
    expect(card.answer.headers).toEqual({ allow: 'GET, POST' });
  });

  it('refuses a body that is not JSON 415, naming what was sent, with Accept-Post', () => {
    const form = response();
    const posted = req('POST', { 'content-type': 'text/plain' });
    expect(admitJsonPost(posted, form.res, { origins })).toEqual({
      kind: 'refused',
      status: 415,
      contentType: 'text/plain',
    });
    expect(form.answer.headers).toEqual({ 'accept-post': 'application/json' });
    const none = response();
    expect(admitJsonPost(req('POST', {}), none.res, { origins })).toMatchObject({
      contentType: 'none',
    });
    const a2a = req('POST', { 'content-type': 'application/a2a+json' });
    expect(admitJsonPost(a2a, response().res, { origins }).kind).toBe('refused');
    const types = ['application/json', 'application/a2a+json'];
    expect(admitJsonPost(a2a, response().res, { origins, mediaTypes: types }).kind).toBe(
      'admitted',
    );
  });
});
