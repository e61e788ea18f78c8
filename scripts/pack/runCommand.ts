import { type ChildProcess, spawn } from 'node:child_process';

/** How a command ended. */
export interface CommandResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Options of `runCommand`. */
export interface RunOptions {
  readonly cwd: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Kill the command after this long (default 120 s); its result then has `code: null`. */
  readonly timeoutMs?: number;
}

/** The commands started by `runCommand` that have not exited yet, and how to wait for each. */
const live = new Map<ChildProcess, Promise<void>>();

/** Runs a command to its end and collects its output; never rejects on a failing exit. */
export function runCommand(
  command: string,
  args: readonly string[],
  options: RunOptions,
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    live.set(child, new Promise((exited) => child.once('close', () => exited())));
    const stdout: string[] = [];
    const stderr: string[] = [];
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => stdout.push(chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      live.delete(child);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      live.delete(child);
      resolve({ code, stdout: stdout.join(''), stderr: stderr.join('') });
    });
  });
}

/**
 * Kills (SIGKILL) every command `runCommand` started that is still running and resolves once
 * they have all exited: what a cleanup hook does first, so it never deletes a directory a
 * command (an `npm install` cut by its test's time limit) is still writing to.
 */
export async function killRunningCommands(): Promise<void> {
  const exits = [...live].map(([child, exited]) => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    return exited;
  });
  await Promise.all(exits);
}

/** The environment without what a package manager running us set for its own children. */
export function plainEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(env).filter(
      ([key]) => !/^(npm_|pnpm_|PNPM_|NODE_OPTIONS$|INIT_CWD$)/i.test(key),
    ),
  );
}

/** A one-line summary of a failed command for an assertion message. */
export function describeFailure(what: string, result: CommandResult): string {
  const output = `${result.stdout}\n${result.stderr}`.trim().split('\n').slice(-30).join('\n');
  return `${what} exited with ${result.code ?? 'a timeout'}:\n${output}`;
}
