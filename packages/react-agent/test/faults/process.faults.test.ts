import { spawn } from 'node:child_process';
import type { ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  answerSse,
  deltaChunk,
  type FaultServer,
  sseData,
  startFaultServer,
  startSse,
} from './faultServer.js';

let server: FaultServer | undefined;

const toolCallAt = (index: unknown) =>
  sseData(
    deltaChunk({ tool_calls: [{ index, id: 'x', function: { name: 'f', arguments: '{}' } }] }),
  );

/** One hostile answer per request, in order; the last one is a good answer. */
const answers: ((res: ServerResponse) => void)[] = [
  (res) => {
    startSse(res);
    res.end(toolCallAt('constructor') + sseData(deltaChunk({}, 'tool_calls')));
  },
  (res) => {
    startSse(res);
    res.end(toolCallAt('__proto__') + sseData(deltaChunk({}, 'tool_calls')));
  },
  (res) => {
    startSse(res);
    res.end(toolCallAt(200_000_000) + sseData(deltaChunk({}, 'tool_calls')));
  },
  (res) => {
    startSse(res);
    res.end(
      sseData({ choices: [{ index: 0, finish_reason: null }] }) + 'data: {"choices":[{"delta":\n\n',
    );
  },
  (res) => {
    startSse(res);
    res.write(sseData(deltaChunk({ content: 'cut' })), () => res.socket?.destroy());
  },
  (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"error":{"message":"upstream exploded"}}');
  },
  (res) => answerSse(res, 'Still here.'),
];

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const client = fileURLToPath(new URL('./hostileClient.ts', import.meta.url));

describe('a plain node process fed hostile chunks', () => {
  it('reports each as a ModelError, answers the last call and exits 0 by itself', async () => {
    server = await startFaultServer((_req, res, n) => answers[n - 1]?.(res));
    const child = spawn(
      process.execPath,
      [
        '--conditions=@rxagent/source',
        '--import',
        'tsx',
        client,
        server.baseURL,
        String(answers.length),
      ],
      { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    // Cut by the time limit, the test must not leave the process running.
    onTestFinished(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (part: Buffer) => {
      stdout += part.toString();
    });
    child.stderr.on('data', (part: Buffer) => {
      stderr += part.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const results = lines.filter((line) => 'n' in line);
    expect(results).toHaveLength(answers.length);
    for (const result of results.slice(0, -1)) {
      expect(result).toMatchObject({ ok: false, name: 'ModelError' });
    }
    expect(results.at(-1)).toMatchObject({ ok: true, text: 'Still here.' });
    expect(lines.at(-1)).toEqual({ done: true, polluted: [] });
  }, 60_000);
});
