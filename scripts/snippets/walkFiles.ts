import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Directories never searched for docs or sources: installs, generated output, written snippets. */
const SKIPPED = new Set(['node_modules', '.snippets', 'dist', 'api']);

/**
 * The files under `root/dir` (paths relative to `root`, sorted) that `keep` accepts.
 *
 * It walks the tree itself rather than with `readdirSync(…, { recursive: true })`: from
 * Node 22 that call follows symbolic links to directories, and a workspace package's
 * `node_modules` links back into the workspace (pnpm), so on Node 24 one walk of docs/
 * listed millions of paths through the link cycles and ran the test worker out of heap.
 * Here skipped directories are never opened and links are never followed, so the work is
 * bounded by the real tree on every Node version.
 */
export function walkFiles(root: string, dir: string, keep: (path: string) => boolean): string[] {
  const start = join(root, dir);
  if (!existsSync(start)) return [];
  const files: string[] = [];
  const pending = [start];
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      // A Dirent of a symbolic link is neither a file nor a directory: links are skipped.
      if (entry.isDirectory()) {
        if (!SKIPPED.has(entry.name)) pending.push(path);
      } else if (entry.isFile()) {
        const relativePath = relative(root, path);
        if (keep(relativePath)) files.push(relativePath);
      }
    }
  }
  return files.sort();
}
