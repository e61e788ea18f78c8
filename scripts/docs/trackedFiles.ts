import { execFileSync } from 'node:child_process';

/** The repository's tracked files (paths relative to `root`), as `git ls-files` lists them. */
export function trackedFiles(root: string): string[] {
  const out = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' });
  return out.split('\0').filter((path) => path.length > 0);
}
