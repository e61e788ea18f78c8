import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The repository's files (paths relative to `root`): tracked ones, and new ones not ignored by
 * .gitignore (so a document is checked before it is committed).
 */
export function trackedFiles(root: string): string[] {
  const args = ['ls-files', '-z', '--cached', '--others', '--exclude-standard'];
  const out = execFileSync('git', args, { cwd: root, encoding: 'utf8' });
  // A tracked file deleted from the work tree is listed too: it cites nothing any more.
  return out.split('\0').filter((path) => path.length > 0 && existsSync(join(root, path)));
}
