import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

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
 * imported (by a test). Ends with how long the program took; a failure is printed and sets a
 * non-zero exit code.
 */
export function runMain(moduleUrl: string, main: () => Promise<unknown>): void {
  if (!isEntryPoint(moduleUrl)) return;
  const started = performance.now();
  main().then(
    () =>
      process.stdout.write(
        `\n(finished in ${((performance.now() - started) / 1000).toFixed(1)} s)\n`,
      ),
    (error: unknown) => {
      process.stderr.write(
        `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exitCode = 1;
    },
  );
}
