import { spawn } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebChat, type WebChat } from '../src/main.js';

const EXAMPLE_DIR = fileURLToPath(new URL('..', import.meta.url));

/** The environment of an offline run: no model keys, whatever the developer's shell has. */
function offlineEnv(port: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port) };
  for (const name of Object.keys(env)) if (name.startsWith('OPENAI_')) delete env[name];
  return env;
}

function post(url: string, headers: Record<string, string>): Promise<[number, string]> {
  const body = JSON.stringify({
    threadId: 't',
    runId: 'r',
    messages: [{ id: 'u1', role: 'user', content: 'Weather in Paris?' }],
    tools: [],
    context: [],
  });
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve([res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8')]));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('web-chat server', () => {
  let chat: WebChat;
  beforeAll(async () => {
    chat = await startWebChat({ env: {}, paceMs: 0 });
  });
  afterAll(() => chat?.close());

  it("runs the agent for its own page's JSON POST", async () => {
    const [status, text] = await post(`${chat.url}agent`, {
      'content-type': 'application/json',
      origin: chat.url.slice(0, -1),
    });
    expect(status).toBe(200);
    expect(text).toContain('"type":"RUN_FINISHED"');
  });

  it('refuses what another site could send it: a foreign origin (403) and a form or text POST (415)', async () => {
    const json = { 'content-type': 'application/json' };
    expect((await post(`${chat.url}agent`, { ...json, origin: 'http://evil.example' }))[0]).toBe(
      403,
    );
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      expect((await post(`${chat.url}agent`, { 'content-type': type }))[0], type).toBe(415);
    }
    expect(chat.agents.size).toBe(1);
  });
});

describe('web-chat on a port that is taken', () => {
  let taken: Server;
  let port: number;
  beforeAll(async () => {
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    port = (taken.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())));

  it('exits 1 with one line naming the port and how to pick another, no stack trace', async () => {
    const child = spawn(
      process.execPath,
      ['--conditions=@rxagent/source', '--import', 'tsx', 'src/main.ts'],
      { cwd: EXAMPLE_DIR, env: offlineEnv(port), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code, stderr).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `web-chat: port ${port} on 127.0.0.1 is already in use (is another web chat running?): stop it, or pick another port, e.g. PORT=${port + 1}.\n`,
    );
  }, 60_000);
});
