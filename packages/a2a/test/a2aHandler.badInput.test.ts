import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
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

async function post(url: string, body: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...headers },
    body,
  });
  return {
    status: response.status,
    body: (await response.json()) as { id?: unknown; error?: { code: number; message: string } },
  };
}

const rpc = (method: string, params: unknown, id: number | string = 1) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, params });

describe('a2aHandler answers bad input with the protocol errors', () => {
  async function start(maxBodyBytes?: number): Promise<string> {
    const options = maxBodyBytes === undefined ? { card } : { card, maxBodyBytes };
    server = await listen(a2aHandler(opsAgent(['ok']), options));
    return server.url;
  }

  it('-32700 for a body that is not JSON', async () => {
    const url = await start();
    const { body } = await post(url, '{"jsonrpc": "2.0", ');
    expect(body.error?.code).toBe(-32700);
    expect(body.id).toBeNull();
  });

  it('-32600 for JSON that is not a JSON-RPC request, naming what is wrong', async () => {
    const url = await start();
    expect((await post(url, '[]')).body.error).toMatchObject({
      code: -32600,
      message: expect.stringMatching(/batches/),
    });
    expect((await post(url, '{"jsonrpc":"1.0","id":3,"method":"GetTask"}')).body).toMatchObject({
      id: 3,
      error: { code: -32600, message: expect.stringMatching(/"jsonrpc": "2.0"/) },
    });
    expect((await post(url, '{"jsonrpc":"2.0","id":{},"method":"GetTask"}')).body.error?.code).toBe(
      -32600,
    );
  });

  it('-32601 for an unknown method and -32001 for an unknown task', async () => {
    const url = await start();
    expect((await post(url, rpc('message/teleport', {}))).body.error?.code).toBe(-32601);
    expect((await post(url, rpc('GetTask', { id: 'no-such-task' }, 'x'))).body).toMatchObject({
      id: 'x',
      error: { code: -32001 },
    });
    expect((await post(url, rpc('CancelTask', { id: 'no-such-task' }))).body.error?.code).toBe(
      -32001,
    );
  });

  it('-32009 for a request without the 1.0 A2A-Version header (a 0.3 client)', async () => {
    const url = await start();
    const { body } = await post(url, rpc('GetTask', { id: 'x' }), { 'a2a-version': '0.3' });
    expect(body.error?.code).toBe(-32009);
  });

  it('413 with -32600 for a body over maxBodyBytes', async () => {
    const url = await start(1024);
    const { status, body } = await post(url, rpc('SendMessage', { padding: 'x'.repeat(4096) }));
    expect(status).toBe(413);
    expect(body.error).toMatchObject({
      code: -32600,
      message: expect.stringMatching(/larger than 1024 bytes/),
    });
  });

  it('405 for another method, and fails a message without text as a task', async () => {
    const url = await start();
    expect((await fetch(url, { method: 'PUT' })).status).toBe(405);
    const sent = await post(
      url,
      rpc('SendMessage', {
        message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ data: { x: 1 } }] },
      }),
    );
    expect(sent.body).toMatchObject({
      result: { task: { status: { state: 'TASK_STATE_FAILED' } } },
    });
  });

  it('interrupts the run when a streaming client disconnects, keeping the conversation valid', async () => {
    const agent = opsAgent([{ text: 'one two three four five six', chunkDelayMs: 50 }, 'Next.']);
    server = await listen(a2aHandler(agent, { card }));
    const interrupted = new Promise<unknown>((resolve) =>
      agent.addHook({
        onEvent: (event) =>
          void (event.type === 'postCall' && resolve(event.reply.metadata['generateReason'])),
      }),
    );
    const body = rpc('SendStreamingMessage', {
      message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'count' }] },
    });
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(
        `${server!.url}/`,
        { method: 'POST', headers: { 'content-type': 'application/json', 'a2a-version': '1.0' } },
        (res) => {
          res.on('data', (chunk: Buffer) => {
            if (chunk.toString().includes('"artifactUpdate"')) {
              req.destroy();
              resolve();
            }
          });
        },
      );
      req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
      req.end(body);
    });
    expect(await interrupted).toBe('interrupted');
    expect(agent.isRunning).toBe(false);
    const next = await post(
      server.url,
      rpc('SendMessage', {
        message: { messageId: 'm2', role: 'ROLE_USER', parts: [{ text: 'again' }] },
      }),
    );
    expect(next.body).toMatchObject({
      result: { task: { status: { state: 'TASK_STATE_COMPLETED' } } },
    });
  });
});

describe('a2aHandler in its own process', () => {
  it('survives the worst input: garbage, huge, deep, cut-off and abandoned requests', {
    timeout: 60_000,
  }, async () => {
    const fixture = fileURLToPath(new URL('./fixtures/a2aServer.ts', import.meta.url));
    const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--conditions=@rxagent/source', fixture],
      {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (data: Buffer) => {
      stderr += data.toString();
    });
    const exited = new Promise<number | null>((resolve) =>
      child.once('exit', (code) => resolve(code)),
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).on('line', (line) => {
          if (line.startsWith('listening ')) resolve(line.slice('listening '.length));
        });
        void exited.then(() => reject(new Error(`the server exited early:\n${stderr}`)));
      });
      const hits: Array<Promise<unknown>> = [
        post(url, '\u0000\u00ff garbage'),
        post(url, '['.repeat(200_000)),
        post(url, 'x'.repeat(1024 * 1024)).catch(() => 'reset'),
        post(url, rpc('SendMessage', null)),
        post(url, rpc('SendMessage', { message: 'not a message' })),
        post(url, rpc('SendStreamingMessage', { message: { parts: 7 } })),
        post(url, rpc('GetTask', { id: { $gt: '' } })),
        post(
          url,
          JSON.stringify({
            jsonrpc: '2.0',
            method: 'SendMessage',
            params: { message: { parts: [{ text: 'hi' }] } },
          }),
        ),
      ];
      // A body cut off mid-way, and a stream abandoned mid-answer.
      hits.push(
        new Promise<void>((resolve) => {
          const req = httpRequest(url, {
            method: 'POST',
            headers: { 'content-length': '5000', 'a2a-version': '1.0' },
          });
          req.on('error', () => resolve());
          req.write('{"jsonrpc":"2.0","id":1,');
          setImmediate(() => {
            req.destroy();
            resolve();
          });
        }),
        new Promise<void>((resolve) => {
          const req = httpRequest(
            url,
            {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
            },
            (res) =>
              res.once('data', () => {
                req.destroy();
                resolve();
              }),
          );
          req.on('error', () => resolve());
          req.end(
            rpc('SendStreamingMessage', {
              message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'go' }] },
            }),
          );
        }),
      );
      await Promise.all(hits);
      const after = await post(url, rpc('GetTask', { id: 'none' }));
      expect(after.body.error?.code).toBe(-32001);
      expect(child.exitCode).toBeNull();
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
  });
});
