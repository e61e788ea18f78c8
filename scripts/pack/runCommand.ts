import { spawn } from 'node:child_process';

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
    const stdout: string[] = [];
    const stderr: string[] = [];
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => stdout.push(chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: stdout.join(''), stderr: stderr.join('') });
    });
  });
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
