// Child processes of the tests that run a TypeScript program (Redis workers, Restate endpoints).
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** A TypeScript program run as its own Node process (through tsx, on the workspace sources). */
export interface TsProcess {
  readonly child: ChildProcess;
  /** Resolves when the process prints `line` (or rejects when it exits first). */
  waitFor(line: string): Promise<void>;
  /** Kills it with `signal` and waits for it to exit. */
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** Starts `node --import tsx --conditions=@rxagent/source <file> ...args`. */
export function runTs(file: string, args: readonly string[]): TsProcess {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=@rxagent/source', file, ...args],
    {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const lines: string[] = [];
  const waiters: Array<{ line: string; resolve: () => void }> = [];
  let stderr = '';
  child.stderr?.on('data', (data: Buffer) => {
    stderr += data.toString();
    if (process.env['RXAGENT_DEBUG']) process.stderr.write(data);
  });
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (process.env['RXAGENT_DEBUG']) console.log('child:', line);
    lines.push(line);
    for (const waiter of waiters.filter((w) => w.line === line)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    waitFor(line) {
      if (lines.includes(line)) return Promise.resolve();
      return new Promise((resolve, reject) => {
        waiters.push({ line, resolve });
        void exited.then(() =>
          reject(new Error(`process exited before printing "${line}":\n${stderr.slice(-2000)}`)),
        );
      });
    },
    async kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** How a program run by {@link runTsToEnd} ended: its stdout, whole and as non-empty lines. */
export interface TsRun {
  /** It died of SIGKILL (a crash the program or the test caused on purpose). */
  readonly killed: boolean;
  readonly stdout: string;
  readonly lines: readonly string[];
}

/**
 * Runs `node --import tsx --conditions=@rxagent/source <file>` to its end, with `env` added
 * to this process's environment. Resolves when it exits with 0 or dies of SIGKILL; rejects
 * with its exit code and the end of its stderr otherwise.
 */
export function runTsToEnd(file: string, env: Record<string, string> = {}): Promise<TsRun> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@rxagent/source', file], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (part: Buffer) => {
    stdout += part.toString();
  });
  child.stderr.on('data', (part: Buffer) => {
    stderr += part.toString();
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      const lines = stdout.split('\n').filter((line) => line !== '');
      if (signal === 'SIGKILL') resolve({ killed: true, stdout, lines });
      else if (code === 0) resolve({ killed: false, stdout, lines });
      else
        reject(new Error(`${file} exited with ${String(code ?? signal)}: ${stderr.slice(-3000)}`));
    });
  });
}
