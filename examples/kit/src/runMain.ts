import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isErrorRendered } from '@rxagent/terminal';

/** Whether the module at `moduleUrl` is the program's entry point (`tsx src/main.ts`). */
export function isEntryPoint(moduleUrl: string, argv: readonly string[] = process.argv): boolean {
  const entry = argv[1];
  if (entry === undefined) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(moduleUrl));
  } catch {
    return false;
  }
}

/**
 * Runs `main` when the module at `moduleUrl` is the entry point, and does nothing when it is
 * imported (by a test). Ends with how long the program took; a failure is printed once (see
 * `reportFailure`) and sets a non-zero exit code.
 */
export function runMain(moduleUrl: string, main: () => Promise<unknown>): void {
  if (!isEntryPoint(moduleUrl)) return;
  const started = performance.now();
  const seconds = (): string => ((performance.now() - started) / 1000).toFixed(1);
  main().then(
    () => process.stdout.write(`\n(finished in ${seconds()} s)\n`),
    (error: unknown) => {
      reportFailure(error, seconds());
      process.exitCode = 1;
    },
  );
}

/**
 * Prints why a program failed, once: an error the terminal renderer already showed (its
 * `✗` line) only gets the elapsed time, any other its stack (or its text).
 */
export function reportFailure(
  error: unknown,
  seconds: string,
  err: NodeJS.WritableStream = process.stderr,
): void {
  if (isErrorRendered(error)) {
    err.write(`\n(failed after ${seconds} s)\n`);
    return;
  }
  err.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
}
