import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A shell line in a markdown file that runs `pnpm` as if it were installed. */
export interface BarePnpmCommand {
  readonly file: string;
  readonly line: number;
  readonly text: string;
}

/** `pnpm` as a command word: at the start, or after env assignments, `&&`, `;` or `|`. */
const BARE_PNPM = /(^|&&|;|\||\s)(\w+=\S*\s+)*pnpm\s/;

/**
 * The lines of the `sh` / `bash` blocks in the markdown `files` that call a bare `pnpm`:
 * pnpm is not on an npm-only machine, so commands use `npx -y pnpm@<version> …`.
 */
export function barePnpmCommands(root: string, files: readonly string[]): BarePnpmCommand[] {
  const found: BarePnpmCommand[] = [];
  for (const file of files.filter((path) => path.endsWith('.md'))) {
    let inShell = false;
    readFileSync(join(root, file), 'utf8')
      .split('\n')
      .forEach((text, index) => {
        const fence = /^\s*```(\w*)/.exec(text);
        if (fence) {
          inShell = !inShell && /^(sh|bash|shell|console)$/.test(fence[1] ?? '');
          return;
        }
        const command = text.replace(/#.*$/, '').replaceAll(/npx -y pnpm@[\w.-]+/g, 'PNPM');
        if (inShell && BARE_PNPM.test(command)) found.push({ file, line: index + 1, text });
      });
  }
  return found;
}
