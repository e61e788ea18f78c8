import { a2aHandler } from '@rxagent/a2a';
import { afterEach, describe, expect, it } from 'vitest';
import { opsAgent } from './agents.js';
import { type Loopback, listen } from './loopback.js';

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const card = { name: 'ops', description: 'Looks after files.' };

interface RpcAnswer {
  id?: unknown;
  result?: { task?: { status?: { state?: string } } };
  error?: { code: number; message: string };
}

async function post(url: string, body: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...headers },
    body,
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as RpcAnswer,
  };
}

const send = (message: unknown, id: number | string = 1) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'SendMessage', params: { message } });

const hello = { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'Hello' }] };

describe('a2aHandler request policy', () => {
  async function start(options: Partial<Parameters<typeof a2aHandler>[1]> = {}): Promise<string> {
    server = await listen(a2aHandler(opsAgent(['ok', 'ok', 'ok']), { card, ...options }));
    return server.url;
  }

  it('answers 415 to a content type other than JSON, before running anything', async () => {
    const url = await start();
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data']) {
      const { status, headers, body } = await post(url, send(hello), { 'content-type': type });
      expect(status, type).toBe(415);
      expect(headers.get('accept-post')).toBe('application/json');
      expect(body.error).toMatchObject({
        code: -32600,
        message: new RegExp(`Content-Type ${type}`),
      });
    }
    const bare = await fetch(url, {
      method: 'POST',
      headers: { 'a2a-version': '1.0' },
      body: new Uint8Array([1]),
    });
    expect(bare.status).toBe(415);
    // A2A's own media type is JSON too.
    const a2aJson = await post(url, send(hello), { 'content-type': 'application/a2a+json' });
    expect(a2aJson.body.result?.task?.status?.state).toBe('TASK_STATE_COMPLETED');
  });

  it('answers 403 to a page of a foreign origin, and serves its own origin, no origin and allowed ones', async () => {
    const url = await start({ allowedOrigins: ['https://app.example'] });
    const foreign = await post(url, send(hello), { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error?.message).toMatch(
      /Origin https:\/\/evil\.example may not call this agent/,
    );
    const own = await post(url, send(hello), { origin: url });
    expect(own.body.result?.task?.status?.state).toBe('TASK_STATE_COMPLETED');
    const allowed = await post(url, send(hello), { origin: 'https://app.example' });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example');
    const preflight = await fetch(url, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, a2a-version',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type, a2a-version');
  });

  it('answers -32602 (HTTP 200) to a body nested deeper than 64 levels, with the request id', async () => {
    const url = await start();
    let deep: unknown = 'bottom';
    for (let i = 0; i < 3000; i++) deep = { inner: deep };
    const message = { messageId: 'm1', role: 'ROLE_USER', parts: [{ data: deep }] };
    const { status, body } = await post(url, send(message, 'deep'));
    expect(status).toBe(200);
    expect(body).toMatchObject({
      id: 'deep',
      error: { code: -32602, message: expect.stringMatching(/deeper than 64 levels/) },
    });
    // A data part nested within the limit is no error.
    let shallow: unknown = 'bottom';
    for (let i = 0; i < 50; i++) shallow = { inner: shallow };
    const fine = await post(url, send({ ...hello, parts: [{ text: 'hi' }, { data: shallow }] }));
    expect(fine.body.result?.task?.status?.state).toBe('TASK_STATE_COMPLETED');
  });

  it('answers -32602 to a message with an unknown role, no role, no parts or no message', async () => {
    const url = await start();
    const banana = await post(url, send({ ...hello, role: 'banana' }, 7));
    expect(banana.body).toMatchObject({
      id: 7,
      error: {
        code: -32602,
        message: expect.stringMatching(/role must be "ROLE_USER" or "ROLE_AGENT" \(got "banana"\)/),
      },
    });
    const noRole = await post(url, send({ messageId: 'm', parts: [{ text: 'hi' }] }));
    expect(noRole.body.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/role/),
    });
    const noParts = await post(url, send({ ...hello, parts: [] }));
    expect(noParts.body.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(
        /parts must be a non-empty array of parts \(got an empty array\)/,
      ),
    });
    const stream = JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'SendStreamingMessage',
      params: { message: { ...hello, parts: 'x' } },
    });
    expect((await post(url, stream)).body.error?.code).toBe(-32602);
    const noMessage = JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'SendMessage', params: {} });
    expect((await post(url, noMessage)).body.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/params\.message/),
    });
  });

  it('reads a request without A2A-Version as A2A 0.3 and answers -32009 naming the header to send', async () => {
    const url = await start();
    for (const headers of [{}, { 'a2a-version': '' }]) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: send(hello, 'v'),
      });
      const body = (await response.json()) as RpcAnswer;
      expect(response.status).toBe(200);
      expect(body).toMatchObject({
        id: 'v',
        error: {
          code: -32009,
          message: expect.stringMatching(/no A2A-Version header.*"A2A-Version: 1\.0"/),
        },
      });
    }
    const old = await post(url, send(hello), { 'a2a-version': '0.3' });
    expect(old.body.error).toMatchObject({
      code: -32009,
      message: expect.stringMatching(/'0\.3' is not supported/),
    });
  });

  it('rejects limits that are not positive whole numbers, naming the option', () => {
    const agent = opsAgent([]);
    for (const name of ['maxTasks', 'maxInputDepth', 'maxBodyBytes'])
      for (const value of [0, -1, 1.5, '10'])
        expect(
          () => a2aHandler(agent, { card, [name]: value } as never),
          `${name} ${value}`,
        ).toThrow(new RegExp(`a2aHandler: ${name} must be a positive whole number`));
  });
});
