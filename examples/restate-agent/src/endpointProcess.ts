import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const endpointFile = fileURLToPath(new URL('./endpoint.ts', import.meta.url));

/** The endpoint's child process. */
export interface EndpointProcess {
  readonly pid: number;
  /** Resolves when the process prints `line`; rejects if it exits first. */
  waitFor(line: string): Promise<void>;
  /** Kills it with `signal` and waits for it to exit. */
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** Starts `endpoint.ts` through tsx, on the workspace sources, serving on `port`. */
export function startEndpoint(
  port: number,
  ledger: string,
  env: NodeJS.ProcessEnv,
): EndpointProcess {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=@rxagent/source', endpointFile, String(port), ledger],
    { env, stdio: ['ignore', 'pipe', 'pipe'], cwd: fileURLToPath(new URL('..', import.meta.url)) },
  );
  const lines: string[] = [];
  const waiting: Array<{ line: string; resolve: () => void }> = [];
  let stderr = '';
  child.stderr?.on('data', (data: Buffer) => {
    stderr = (stderr + data.toString()).slice(-4_000);
  });
  createInterface({ input: child.stdout! }).on('line', (line) => {
    lines.push(line);
    for (const waiter of waiting.filter((w) => w.line === line)) {
      waiting.splice(waiting.indexOf(waiter), 1);
      waiter.resolve();
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    pid: child.pid ?? -1,
    waitFor(line) {
      if (lines.includes(line)) return Promise.resolve();
      return new Promise((resolve, reject) => {
        waiting.push({ line, resolve });
        void exited.then(() =>
          reject(new Error(`endpoint ${child.pid} exited before "${line}":\n${stderr}`)),
        );
      });
    },
    async kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
