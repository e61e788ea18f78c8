import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { WrittenSnippet } from './checkSnippets.js';

/** How a runnable snippet ended. */
export interface SnippetRun {
  readonly snippet: WrittenSnippet;
  readonly ok: boolean;
  /** Why it failed (exit code or timeout, and the end of its stderr). */
  readonly failure?: string;
  readonly stdout: string;
}

const OFFLINE_GUARD = fileURLToPath(new URL('./offline.mjs', import.meta.url));

/**
 * Runs a written snippet with Node in a child process, on the sources (`tsx` and the
 * `@rxagent/source` condition) and offline (only loopback connections), from `root` (where
 * `tsx` is installed). Resolves when it exits; a snippet still running after `timeoutMs`
 * (counted from its start: run many through a `ProcessPool` so they do not share the cores
 * all at once) is killed and fails.
 */
export function runSnippet(
  root: string,
  written: WrittenSnippet,
  timeoutMs = 30_000,
): Promise<SnippetRun> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--conditions=@rxagent/source', '--import', 'tsx', '--import', OFFLINE_GUARD, written.path],
      {
        cwd: root,
        env: { ...process.env, OPENAI_API_KEY: '', OPENAI_BASE_URL: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const stdout: string[] = [];
    const stderr: string[] = [];
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => stdout.push(chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const where = `${written.snippet.file}:${written.snippet.line}`;
      const ok = code === 0 && !timedOut;
      const reason = timedOut
        ? `still running after ${timeoutMs} ms`
        : `exited with ${code ?? signal}`;
      const tail = stderr.join('').trim().split('\n').slice(-40).join('\n');
      resolve({
        snippet: written,
        ok,
        stdout: stdout.join(''),
        ...(!ok && { failure: `${where} ${reason}${tail ? `:\n${tail}` : ''}` }),
      });
    });
  });
}
