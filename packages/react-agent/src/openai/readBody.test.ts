import { describe, expect, it } from 'vitest';
import { serve } from '../../test/httpServer.js';
import { createNodeFetch } from './nodeFetch.js';
import { takeNodeBody } from './nodeResponse.js';
import { readBody } from './readBody.js';

/** What a sink heard: the body as text, and how it ended. */
interface Heard {
  readonly text: string;
  readonly error: unknown;
}

/** Reads `response` with `readBody` until it ends; `onBytes` may throw to stop it. */
function hear(response: Response, onBytes: (text: string) => void = () => {}) {
  const decoder = new TextDecoder();
  let text = '';
  let stop: () => void = () => {};
  const ended = new Promise<Heard>((resolve) => {
    stop = readBody(response, {
      bytes(chunk) {
        const part = decoder.decode(chunk);
        text += part;
        onBytes(part);
      },
      end: (error) => resolve({ text, error }),
    });
  });
  return { ended, stop: () => stop() };
}

const transports = [
  ['createNodeFetch', createNodeFetch()],
  ["Node's fetch", globalThis.fetch],
] as const;

describe.each(transports)('readBody on %s', (_, fetch) => {
  it('hears every byte as it arrives, then the end', async () => {
    let sendRest: () => void = () => {};
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: 1\n\n');
      sendRest = () => res.end('data: 2\n\n');
    });
    const { ended } = hear(await fetch(server.url), (part) => {
      if (part === 'data: 1\n\n') sendRest();
    });
    expect(await ended).toEqual({ text: 'data: 1\n\ndata: 2\n\n', error: undefined });
  });

  it('ends with an error when the server cuts the connection mid-body', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200);
      res.write('data: 1\n\n', () => res.socket?.destroy());
    });
    const { error } = await hear(await fetch(server.url)).ended;
    expect(error).toBeInstanceOf(Error);
  });

  it('ends with what the sink threw, and closes the connection', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200);
      res.write('data: 1\n\n');
    });
    const { error } = await hear(await fetch(server.url), () => {
      throw new SyntaxError('not JSON');
    }).ended;
    expect(error).toEqual(new SyntaxError('not JSON'));
    await server.closed;
  });

  it('closes the connection when stopped, and tells the sink nothing more', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200);
      res.write('data: 1\n\n');
    });
    let ends = 0;
    const stop = readBody(await fetch(server.url), { bytes: () => {}, end: () => ends++ });
    stop();
    await server.closed;
    expect(ends).toBe(0);
  });
});

describe('the Response of createNodeFetch', () => {
  const body = '{"ok":true}';
  const start = () =>
    serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });

  it('reads like any Response: text(), json(), body, bodyUsed', async () => {
    const server = await start();
    const fetch = createNodeFetch();
    const first = await fetch(server.url);
    expect(first.bodyUsed).toBe(false);
    expect(await first.text()).toBe(body);
    expect(first.bodyUsed).toBe(true);
    expect(await (await fetch(server.url)).json()).toEqual({ ok: true });
    const reader = (await fetch(server.url)).body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe(body);
  });

  it('gives its readable once, to the first reader, and then reads as used', async () => {
    const server = await start();
    const response = await createNodeFetch()(server.url);
    const source = takeNodeBody(response);
    expect(source).toBeDefined();
    expect(takeNodeBody(response)).toBeUndefined();
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(/unusable/);
    const parts: Buffer[] = [];
    for await (const part of source!) parts.push(part as Buffer);
    expect(Buffer.concat(parts).toString()).toBe(body);
  });

  it('keeps its readable once the body was read another way', async () => {
    const server = await start();
    const response = await createNodeFetch()(server.url);
    expect(response.body).not.toBeNull();
    expect(takeNodeBody(response)).toBeUndefined();
    expect(takeNodeBody(await globalThis.fetch(server.url))).toBeUndefined();
  });
});
