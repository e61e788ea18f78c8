import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { scaled } from '../testing/timeLimits.js';
import { runSnippet } from './runSnippet.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const dir = mkdtempSync(join(tmpdir(), 'rxagent-run-'));

function written(name: string, code: string) {
  const path = join(dir, name);
  writeFileSync(path, code);
  return { snippet: { file: `docs/${name}.md`, line: 7, code, run: true }, path, codeOffset: 1 };
}

// Each test starts a Node child process (tsx compiles on the way in): seconds on a busy machine.
const CHILD_TEST_MS = scaled(60_000);

describe('runSnippet', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(
    'runs TypeScript with top-level await and returns its output',
    async () => {
      const run = await runSnippet(
        root,
        written('ok.mts', 'const n: number = await Promise.resolve(41);\nconsole.log(n + 1);\n'),
      );
      expect(run).toMatchObject({ ok: true, stdout: '42\n' });
    },
    CHILD_TEST_MS,
  );

  it(
    'fails a snippet that throws, naming its file:line and the error',
    async () => {
      const run = await runSnippet(root, written('throws.mts', "throw new Error('boom');\n"));
      expect(run.ok).toBe(false);
      expect(run.failure).toMatch(/^docs\/throws\.mts\.md:7 exited with 1:[\s\S]*boom/);
    },
    CHILD_TEST_MS,
  );

  it(
    'fails a snippet that reaches for a non-loopback host',
    async () => {
      const code = "await fetch('http://203.0.113.9/v1/models');\n";
      const run = await runSnippet(root, written('network.mts', code));
      expect(run.ok).toBe(false);
      expect(run.failure).toContain(
        'Offline snippet: a connection to 203.0.113.9:80 was attempted',
      );
    },
    CHILD_TEST_MS,
  );

  it(
    'lets a snippet use a loopback server',
    async () => {
      const server: Server = createServer((_req, res) => res.end('pong'));
      await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
      const { port } = server.address() as { port: number };
      try {
        const code = `console.log(await (await fetch('http://127.0.0.1:${port}/')).text());\n`;
        const run = await runSnippet(root, written('loopback.mts', code));
        expect(run).toMatchObject({ ok: true, stdout: 'pong\n' });
      } finally {
        await new Promise((closed) => server.close(closed));
      }
    },
    CHILD_TEST_MS,
  );

  it(
    'kills a snippet that does not end in time',
    async () => {
      const run = await runSnippet(
        root,
        written('hangs.mts', 'setInterval(() => {}, 1000);\n'),
        1_000,
      );
      expect(run.ok).toBe(false);
      expect(run.failure).toContain('still running after 1000 ms');
    },
    CHILD_TEST_MS,
  );
});
