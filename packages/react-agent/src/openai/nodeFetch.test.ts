import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { InvalidArgumentError } from '@rxagent/core';
import { describe, expect, it } from 'vitest';
import { serve } from '../../test/httpServer.js';
import { createNodeFetch, sendAbortableOf } from './nodeFetch.js';
import { responseHeader } from './nodeResponse.js';

async function readAll(response: Response): Promise<string[]> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const parts: string[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return parts;
    parts.push(decoder.decode(value));
  }
}

describe('createNodeFetch', () => {
  it('sends method, headers and body, and answers status, headers and body like fetch', async () => {
    let seen: { method?: string | undefined; headers?: IncomingMessage['headers']; body?: string } =
      {};
    const server = await serve((req, res, body) => {
      seen = { method: req.method, headers: req.headers, body };
      res.writeHead(201, 'Made', [
        ['content-type', 'application/json'],
        ['x-twice', 'a'],
        ['x-twice', 'b'],
      ]);
      res.end('{"ok":true}');
    });
    const response = await createNodeFetch()(`${server.url}/v1/chat`, {
      method: 'POST',
      headers: new Headers({ Authorization: 'Bearer k', 'Content-Type': 'application/json' }),
      body: '{"model":"m","text":"é"}',
    });
    expect(seen.method).toBe('POST');
    expect(seen.headers).toMatchObject({
      authorization: 'Bearer k',
      'content-type': 'application/json',
      'content-length': '25',
      'accept-encoding': 'gzip, deflate, br',
    });
    expect(seen.body).toBe('{"model":"m","text":"é"}');
    expect(response.status).toBe(201);
    expect(response.statusText).toBe('Made');
    expect(response.ok).toBe(true);
    expect(response.headers.get('x-twice')).toBe('a, b');
    expect(await response.json()).toEqual({ ok: true });
  });

  it('reads a header without building the response Headers, as Headers.get gives it', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, [
        ['Content-Type', 'text/event-stream'],
        ['x-twice', 'a'],
        ['X-Twice', 'b'],
      ]);
      res.end('data: [DONE]\n\n');
    });
    const response = await createNodeFetch()(server.url);
    expect(responseHeader(response, 'content-type')).toBe('text/event-stream');
    expect(responseHeader(response, 'x-twice')).toBe('a, b');
    expect(responseHeader(response, 'x-absent')).toBeNull();
    expect(response.headers.get('x-twice')).toBe('a, b');
    expect(responseHeader(response, 'x-twice')).toBe('a, b');
    expect(responseHeader(new Response(null, { headers: { 'x-one': '1' } }), 'x-one')).toBe('1');
    await response.text();
  });

  it('sends a frozen header array as given each time, with each body its own length; a mutable one as it is now', async () => {
    const seen: IncomingMessage['headers'][] = [];
    const server = await serve((req, res) => {
      seen.push(req.headers);
      res.end();
    });
    const fetch = createNodeFetch();
    const frozen = Object.freeze([Object.freeze(['x-route', 'r1'])]) as unknown as [
      string,
      string,
    ][];
    await (await fetch(server.url, { method: 'POST', headers: frozen, body: 'ab' })).text();
    await (await fetch(server.url, { method: 'POST', headers: frozen, body: 'abcdé' })).text();
    const mutable: [string, string][] = [['x-mutable', 'm1']];
    await (await fetch(server.url, { method: 'POST', headers: mutable, body: 'a' })).text();
    mutable[0] = ['x-mutable', 'm2'];
    await (await fetch(server.url, { method: 'POST', headers: mutable, body: 'a' })).text();
    expect(seen[0]).toMatchObject({ 'x-route': 'r1', 'content-length': '2' });
    expect(seen[1]).toMatchObject({ 'x-route': 'r1', 'content-length': '6' });
    expect(seen[2]).toMatchObject({ 'x-mutable': 'm1' });
    expect(seen[3]).toMatchObject({ 'x-mutable': 'm2' });
  });

  it('takes headers as a plain object or as pairs', async () => {
    const seen: IncomingMessage['headers'][] = [];
    const server = await serve((req, res) => {
      seen.push(req.headers);
      res.end();
    });
    const fetch = createNodeFetch();
    await (await fetch(server.url, { headers: { 'X-One': '1' } })).text();
    await (await fetch(new URL(server.url), { headers: [['X-Two', '2']] })).text();
    expect(seen[0]).toMatchObject({ 'x-one': '1' });
    expect(seen[1]).toMatchObject({ 'x-two': '2' });
  });

  it('sends the host and the path with its query, and its own content-length', async () => {
    let seen: { url?: string | undefined; headers?: IncomingMessage['headers'] } = {};
    const server = await serve((req, res) => {
      seen = { url: req.url, headers: req.headers };
      res.end();
    });
    await (
      await createNodeFetch()(`${server.url}/v1/x?api-version=2&b=%20`, {
        method: 'POST',
        headers: { 'Content-Length': '999' },
        body: 'four',
      })
    ).text();
    expect(seen.url).toBe('/v1/x?api-version=2&b=%20');
    expect(seen.headers).toMatchObject({
      host: server.url.slice('http://'.length),
      'content-length': '4',
    });
  });

  it('leaves a URL with credentials to the global fetch, which refuses it', async () => {
    const server = await serve((_req, res) => res.end());
    const withCredentials = server.url.replace('http://', 'http://user:secret@');
    await expect(createNodeFetch()(withCredentials)).rejects.toThrow(TypeError);
  });

  it('streams the body as it arrives', async () => {
    let sendRest: () => void = () => {};
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: 1\n\n');
      sendRest = () => res.end('data: 2\n\n');
    });
    const response = await createNodeFetch()(server.url);
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: 1\n\n');
    sendRest();
    const second = await reader.read();
    expect(new TextDecoder().decode(second.value)).toBe('data: 2\n\n');
    expect((await reader.read()).done).toBe(true);
  });

  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ])('decompresses a %s body', async (coding, compress) => {
    const text = 'data: compressed\n\n'.repeat(50);
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-encoding': coding });
      res.end(compress(Buffer.from(text)));
    });
    const response = await createNodeFetch()(server.url);
    expect((await readAll(response)).join('')).toBe(text);
  });

  it('gives a 204 a null body and frees its connection', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    const fetch = createNodeFetch();
    const response = await fetch(server.url, { method: 'DELETE' });
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
    // Its connection is free again: the next request reuses it.
    expect((await fetch(server.url, { method: 'DELETE' })).status).toBe(204);
    expect(server.connections()).toBe(1);
  });

  it('keeps the connection open between requests', async () => {
    const server = await serve((_req, res, body) => res.end(body));
    const fetch = createNodeFetch();
    for (const body of ['one', 'two', 'three']) {
      expect(await (await fetch(server.url, { method: 'POST', body })).text()).toBe(body);
    }
    expect(server.connections()).toBe(1);
  });

  it('closes a connection idle longer than keepAliveMs, but never a slow request or stream', async () => {
    const server = await serve((req, res) => {
      if (req.url === '/slow') setTimeout(() => res.end('slow'), 250);
      else if (req.url === '/gaps') {
        res.writeHead(200);
        res.write('a');
        setTimeout(() => res.end('b'), 250);
      } else res.end('quick');
    });
    const fetch = createNodeFetch({ keepAliveMs: 100 });
    expect(await (await fetch(`${server.url}/slow`)).text()).toBe('slow');
    expect((await readAll(await fetch(`${server.url}/gaps`))).join('')).toBe('ab');
    expect(server.connections()).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await (await fetch(server.url)).text()).toBe('quick');
    expect(server.connections()).toBe(2);
  });

  it('refuses a keepAliveMs that is not a positive number, naming it', () => {
    expect(() => createNodeFetch({ keepAliveMs: 0 })).toThrow(/keepAliveMs.*got 0/);
    expect(() => createNodeFetch({ keepAliveMs: Number.NaN })).toThrow(InvalidArgumentError);
  });

  it('rejects with an AbortError and closes the connection when aborted before the headers', async () => {
    const server = await serve(() => {});
    const controller = new AbortController();
    const pending = createNodeFetch()(server.url, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await server.closed;
  });

  it("rejects with the signal's own reason, as fetch does", async () => {
    const server = await serve(() => {});
    const controller = new AbortController();
    const pending = createNodeFetch()(server.url, { signal: controller.signal });
    const reason = new Error('user left');
    setTimeout(() => controller.abort(reason), 20);
    await expect(pending).rejects.toBe(reason);
  });

  it('rejects at once with an AbortError when the signal is already aborted', async () => {
    const server = await serve((_req, res) => res.end('never asked'));
    const pending = createNodeFetch()(server.url, { signal: AbortSignal.abort() });
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('errors the body with an AbortError and closes the connection when aborted mid-stream', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200);
      res.write('data: 1\n\n');
    });
    const controller = new AbortController();
    const response = await createNodeFetch()(server.url, { signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });
    await server.closed;
  });

  it('sends without a signal through its abortable handle, which aborts before or after the headers', async () => {
    let respond: () => void = () => {};
    const server = await serve((_req, res) => {
      respond = () => {
        res.writeHead(200);
        res.write('data: 1\n\n');
      };
    });
    const send = sendAbortableOf(createNodeFetch());
    const waiting = send!(server.url, { method: 'POST', body: '{}' })!;
    await new Promise((resolve) => setTimeout(resolve, 20));
    waiting.abort();
    await expect(waiting.response).rejects.toMatchObject({ name: 'AbortError' });
    await server.closed;

    const streaming = send!(server.url, { method: 'POST', body: '{}' })!;
    await new Promise((resolve) => setTimeout(resolve, 20));
    respond();
    const reader = (await streaming.response).body!.getReader();
    await reader.read();
    streaming.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });
    expect(sendAbortableOf(globalThis.fetch)).toBeUndefined();
    expect(send!('ftp://example.com/', {})).toBeUndefined();
  });

  it('closes the connection when the reader cancels the body', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200);
      res.write('data: 1\n\n');
    });
    const response = await createNodeFetch()(server.url);
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();
    await server.closed;
  });

  it('errors the body when the server cuts the connection mid-stream', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200);
      res.write('data: 1\n\n', () => res.socket?.destroy());
    });
    const response = await createNodeFetch()(server.url);
    await expect(readAll(response)).rejects.toThrow();
  });

  it("fails like fetch, TypeError('fetch failed') with the socket error as cause, when nothing listens", async () => {
    const server = await serve(() => {});
    const url = server.url;
    await server.stop();
    await expect(createNodeFetch()(url)).rejects.toMatchObject({
      name: 'TypeError',
      message: 'fetch failed',
      cause: { code: 'ECONNREFUSED' },
    });
  });

  it.each([301, 302, 303, 307, 308])(
    'returns a %i redirect as is, without sending the request a second time',
    async (status) => {
      let requests = 0;
      const server = await serve((req, res, body) => {
        requests += 1;
        if (req.url === '/old') {
          res.writeHead(status, { location: '/new' });
          res.end('moved');
        } else res.end(`${req.url} got ${body}`);
      });
      const response = await createNodeFetch()(`${server.url}/old`, { method: 'POST', body: 'x' });
      expect(response.status).toBe(status);
      expect(response.headers.get('location')).toBe('/new');
      expect(await response.text()).toBe('moved');
      expect(requests).toBe(1);
    },
  );

  it('hands a Request object to the global fetch', async () => {
    const server = await serve((req, res) => res.end(req.headers['x-from'] ?? ''));
    const request = new Request(server.url, { headers: { 'x-from': 'request' } });
    expect(await (await createNodeFetch()(request)).text()).toBe('request');
  });

  it('speaks https, trusting the CA it is given', async () => {
    const fixtures = new URL('../../test/fixtures/', import.meta.url);
    const cert = readFileSync(new URL('localhost-cert.pem', fixtures));
    const key = readFileSync(new URL('localhost-key.pem', fixtures));
    const server = await serve(
      (_req, res) => res.end('over tls'),
      createHttpsServer({ cert, key }) as unknown as Server,
    );
    expect(server.url).toMatch(/^https:/);
    await expect(createNodeFetch()(server.url)).rejects.toMatchObject({ message: 'fetch failed' });
    const trusting = createNodeFetch({ tls: { ca: cert } });
    expect(await (await trusting(server.url)).text()).toBe('over tls');
  });
});
