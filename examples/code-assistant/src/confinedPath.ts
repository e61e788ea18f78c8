import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';

/** Whether `path` is `root` or inside it (both already resolved). */
function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * Resolves a model-supplied `path` to a real file inside `root`, or throws an error that
 * tells the model what went wrong. Two checks, because each catches what the other misses:
 * the lexical one rejects `../` traversal and absolute paths before touching the disk; the
 * `realpath` one rejects a symlink inside the root that points outside it.
 */
export async function confinedPath(root: string, path: string): Promise<string> {
  const realRoot = await realpath(root);
  const candidate = resolve(realRoot, path);
  if (!isInside(realRoot, candidate)) {
    throw new Error(
      `Access denied: "${path}" is outside the repository root. Use a path relative to the root, without "../".`,
    );
  }
  let real: string;
  try {
    real = await realpath(candidate);
  } catch {
    throw new Error(`No such file: "${path}". Paths are relative to the repository root.`);
  }
  if (!isInside(realRoot, real)) {
    throw new Error(
      `Access denied: "${path}" is a symbolic link to a location outside the repository root.`,
    );
  }
  if (!(await stat(real)).isFile()) throw new Error(`"${path}" is a directory, not a file.`);
  return real;
}
