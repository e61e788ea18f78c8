import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Role } from './roles.js';

const agentProcess = fileURLToPath(new URL('./agentProcess.ts', import.meta.url));

/** A team member running in its own Node process. */
export interface MemberProcess {
  readonly role: Role;
  readonly pid: number;
  /** Resolves when the process prints `line`; rejects if it exits first. */
  waitFor(line: string): Promise<void>;
  /** Asks it to save its state and exit (SIGTERM), and waits for it. */
  stop(): Promise<void>;
}

/** Starts `agentProcess.ts` for `role` through tsx, on the workspace sources. */
export function startMember(
  role: Role,
  url: string,
  topic: string,
  env: NodeJS.ProcessEnv,
): MemberProcess {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=@rxagent/source', agentProcess, role, url, topic],
    { env, stdio: ['ignore', 'pipe', 'pipe'], cwd: fileURLToPath(new URL('..', import.meta.url)) },
  );
  const seen = new Set<string>();
  const waiting = new Map<string, Array<() => void>>();
  let stderr = '';
  child.stderr?.on('data', (data: Buffer) => {
    stderr += data.toString();
  });
  createInterface({ input: child.stdout! }).on('line', (line) => {
    seen.add(line);
    for (const resolve of waiting.get(line) ?? []) resolve();
    waiting.delete(line);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    role,
    pid: child.pid ?? -1,
    waitFor(line) {
      if (seen.has(line)) return Promise.resolve();
      return new Promise((resolve, reject) => {
        waiting.set(line, [...(waiting.get(line) ?? []), resolve]);
        void exited.then(() =>
          reject(new Error(`${role} exited before "${line}":\n${stderr.slice(-1500)}`)),
        );
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
