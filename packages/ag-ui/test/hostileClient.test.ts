import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const serverFile = fileURLToPath(new URL('./hostileServer.ts', import.meta.url));
const DEPTH = 150_000;

/** `{"a":{"a":…1…}}` nested `depth` levels deep, as text (building it as an object would be too deep to stringify). */
const deepObject = (depth: number): string => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const deepArray = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** A RunAgentInput as text, with `extra` spliced in as raw JSON members. */
function body(
  extra: Record<string, string>,
  messages = '[{"id":"u1","role":"user","content":"Hi"}]',
): string {
  const members = Object.entries(extra).map(([key, raw]) => `,${JSON.stringify(key)}:${raw}`);
  return `{"threadId":"t","runId":"r","messages":${messages},"tools":[],"context":[]${members.join('')}}`;
}

/** POSTs `text` as JSON; resolves with the status and the body (a whole SSE stream for a run). */
function post(url: string, text: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

describe('agUiHandler against hostile bodies, in a process of its own', () => {
  let child: ChildProcess;
  let url: string;
  let stderr = '';
  let exited: Promise<number | null>;

  beforeAll(async () => {
    child = spawn(
      process.execPath,
      ['--import', 'tsx', '--conditions=@rxagent/source', serverFile],
      { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.stderr?.on('data', (data: Buffer) => {
      stderr += data.toString();
    });
    exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    url = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).on('line', (line) => {
        if (line.startsWith('listening ')) resolve(line.slice('listening '.length));
      });
      void exited.then((code) =>
        reject(new Error(`the server exited (${code}) before listening:\n${stderr}`)),
      );
    });
  }, 60_000);

  afterAll(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });

  const expectAlive = (): void => {
    expect(child.exitCode, stderr).toBeNull();
    expect(child.signalCode, stderr).toBeNull();
  };

  it.each([
    ['state', body({ state: deepObject(DEPTH) })],
    ['forwardedProps', body({ forwardedProps: deepArray(DEPTH) })],
    [
      'a tool parameter schema',
      body({}, '[{"id":"u1","role":"user","content":"Hi"}]').replace(
        '"tools":[]',
        `"tools":[{"name":"t","description":"d","parameters":${deepObject(DEPTH)}}]`,
      ),
    ],
    [
      'message content',
      body(
        {},
        `[{"id":"u1","role":"user","content":[{"type":"text","text":"Hi","x":${deepArray(DEPTH)}}]}]`,
      ),
    ],
    [
      'resume payload',
      body({ resume: `[{"interruptId":"c","status":"resolved","payload":${deepObject(DEPTH)}}]` }),
    ],
  ])(
    'answers 400 naming the depth limit for a %s nested 150,000 levels deep',
    async (_, text) => {
      const response = await post(url, text);
      expect(response.status).toBe(400);
      expect(response.text).toMatch(/nested more than 64 levels deep \(maxInputDepth\)/);
      expectAlive();
    },
    30_000,
  );

  it('answers 400 for tool-call arguments whose JSON is nested too deep', async () => {
    const args = JSON.stringify(deepArray(DEPTH));
    const messages = `[{"id":"a1","role":"assistant","toolCalls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":${args}}}]},{"id":"u1","role":"user","content":"Hi"}]`;
    const response = await post(url, body({}, messages));
    expect(response.status).toBe(400);
    expect(response.text).toMatch(
      /messages\.0\.toolCalls\.0\.function\.arguments.*nested more than 64 levels deep/,
    );
    expectAlive();
  }, 30_000);

  it('is still alive afterwards and serves a normal run to its end', async () => {
    const response = await post(url, body({ state: deepObject(20) }));
    expect(response.status).toBe(200);
    expect(response.text).toContain('"type":"RUN_STARTED"');
    expect(response.text).toContain('"type":"TEXT_MESSAGE_CONTENT"');
    expect(response.text).toContain('here.');
    expect(response.text).toContain('"type":"RUN_FINISHED"');
    expectAlive();
  }, 30_000);
});
