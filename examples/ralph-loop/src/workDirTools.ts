import { lstat, mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { Toolkit, tool } from '@rxagent/core';
import { z } from 'zod';

/**
 * Resolves `path` inside `root`, or throws a message the model can act on: absolute paths,
 * `..` escapes and symlinks (which could point anywhere) are refused.
 */
export async function resolveInside(root: string, path: string): Promise<string> {
  if (isAbsolute(path))
    throw new Error(`"${path}" is absolute; use a path relative to the work dir.`);
  const target = resolve(root, path);
  const rel = relative(root, target);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`)) {
    throw new Error(`"${path}" is outside the work dir; use a path like "lib.mjs".`);
  }
  const realRoot = await realpath(root);
  const stats = await lstat(target).catch(() => undefined);
  if (stats?.isSymbolicLink())
    throw new Error(`"${path}" is a symlink; symlinks are not followed.`);
  const parent = await realpath(dirname(target)).catch(() => undefined);
  if (parent !== undefined && parent !== realRoot && !parent.startsWith(realRoot + sep)) {
    throw new Error(`"${path}" resolves outside the work dir.`);
  }
  return target;
}

const readArgs = z.object({ path: z.string().describe('File path relative to the work dir') });
const writeArgs = z.object({
  path: z.string().describe('File path relative to the work dir'),
  content: z.string().describe('The whole new content of the file'),
});

/** A toolkit of `read_file` and `write_file`, both confined to `root`. */
export function workDirTools(root: string): Toolkit {
  const read = tool({
    name: 'read_file',
    description: 'Read a text file of the work dir (e.g. TASK.md or lib.mjs).',
    parameters: readArgs,
    dedupe: false,
    execute: async ({ path }) => {
      const file = await resolveInside(root, path);
      const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') throw new Error(`"${path}" does not exist yet.`);
        throw error;
      });
      return text === '' ? '(empty file)' : text;
    },
  });
  const write = tool({
    name: 'write_file',
    description: 'Replace a file of the work dir with new content (the whole file).',
    parameters: writeArgs,
    dedupe: false,
    execute: async ({ path, content }) => {
      const file = await resolveInside(root, path);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, content, 'utf8');
      return `Wrote ${path} (${content.split('\n').length} lines).`;
    },
  });
  return new Toolkit([read, write]);
}
