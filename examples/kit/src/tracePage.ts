import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { type TraceEntry, traceHtml } from '@rxagent/eval';

/**
 * The file named by `--trace FILE` (or `--trace=FILE`) on the command line, or `undefined`.
 * The examples write a trace page of their run there at the end: the terminal renderer
 * prints the run as it happens, the page keeps it to look at afterwards.
 */
export function traceArg(argv: readonly string[] = process.argv): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg.startsWith('--trace=')) return arg.slice('--trace='.length);
    if (arg === '--trace') {
      const file = argv[i + 1];
      if (file === undefined || file.startsWith('--'))
        throw new Error('--trace needs a FILE, e.g. --trace out.html');
      return file;
    }
  }
  return undefined;
}

/** Writes `traceHtml(entries)` to `path` (its folder created) and resolves with the absolute path. */
export async function writeTracePage(
  path: string,
  entries: readonly TraceEntry[],
  title: string,
): Promise<string> {
  const file = resolve(path);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, traceHtml(entries, { title }));
  return file;
}
