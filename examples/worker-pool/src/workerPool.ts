import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const workerProcess = fileURLToPath(new URL('./workerProcess.ts', import.meta.url));

/**
 * The PostgreSQL schema the workers of `queue` keep their threads in, when `DATABASE_URL`
 * is set: one per run of the example, as the Redis key prefix is.
 */
export function threadSchema(queue: string): string {
  return `worker_pool_${queue.replace(/^travel:/, '').replace(/[^a-z0-9]/g, '_')}`;
}

/** A worker process of the pool. */
export interface WorkerProcess {
  readonly pid: number;
  /** Resolves when the process prints a line starting with `prefix`; rejects if it exits first. */
  waitFor(prefix: string): Promise<string>;
  /** Kills it with `signal` (SIGTERM stops it gracefully) and waits for it to exit. */
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** Starts `workerProcess.ts` through tsx, on the workspace sources. */
export function startWorker(url: string, queue: string, env: NodeJS.ProcessEnv): WorkerProcess {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=@rxagent/source', workerProcess, url, queue],
    { env, stdio: ['ignore', 'pipe', 'pipe'], cwd: fileURLToPath(new URL('..', import.meta.url)) },
  );
  const lines: string[] = [];
  const waiting: Array<{ prefix: string; resolve: (line: string) => void }> = [];
  let stderr = '';
  child.stderr?.on('data', (data: Buffer) => {
    stderr += data.toString();
  });
  createInterface({ input: child.stdout! }).on('line', (line) => {
    lines.push(line);
    for (const waiter of waiting.filter((w) => line.startsWith(w.prefix))) {
      waiting.splice(waiting.indexOf(waiter), 1);
      waiter.resolve(line);
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    pid: child.pid ?? -1,
    waitFor(prefix) {
      const seen = lines.find((line) => line.startsWith(prefix));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        waiting.push({ prefix, resolve });
        void exited.then(() =>
          reject(
            new Error(`worker ${child.pid} exited before "${prefix}":\n${stderr.slice(-1500)}`),
          ),
        );
      });
    },
    async kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
