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
