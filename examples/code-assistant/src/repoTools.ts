import { readFile } from 'node:fs/promises';
import { tool } from '@rxagent/core';
import { z } from 'zod';
import { confinedPath } from './confinedPath.js';

/** Larger files would crowd the context window; the model can ask for a line range instead. */
const MAX_BYTES = 100_000;

async function readConfined(root: string, path: string, signal: AbortSignal): Promise<string[]> {
  const real = await confinedPath(root, path);
  const text = await readFile(real, { encoding: 'utf8', signal });
  if (text.length > MAX_BYTES) throw new Error(`"${path}" is larger than ${MAX_BYTES} bytes.`);
  return text.replace(/\n$/, '').split('\n');
}

/**
 * `read_file`: a file of the repository with line numbers (so the model can cite and count
 * lines), confined to `root` by `confinedPath`.
 */
export function readFileTool(root: string) {
  return tool({
    name: 'read_file',
    description:
      'Reads a text file of the repository (path relative to the repository root), with line numbers.',
    parameters: z.object({ path: z.string().min(1) }),
    execute: async ({ path }, { signal }) => {
      const lines = await readConfined(root, path, signal);
      const width = String(lines.length).length;
      const numbered = lines.map((line, i) => `${String(i + 1).padStart(width)}| ${line}`);
      return `${path} (${lines.length} lines)\n${numbered.join('\n')}`;
    },
  });
}

/**
 * Where a function declared in `lines` starts and ends (1-based, inclusive), or `undefined`.
 * The end is the first later line that closes the declaration at its own indentation, which
 * is reliable for formatted code (this repository is formatted by Biome) and, unlike brace
 * counting, is not fooled by braces in parameter types or strings.
 */
export function locateFunction(
  lines: readonly string[],
  name: string,
): { start: number; end: number } | undefined {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const declaration = new RegExp(
    `^(\\s*)(export\\s+)?(default\\s+)?(async\\s+)?(function\\s*\\*?\\s*${escaped}\\b|(const|let)\\s+${escaped}\\s*=)`,
  );
  const startIndex = lines.findIndex((line) => declaration.test(line));
  if (startIndex === -1) return undefined;
  const start = lines[startIndex]!;
  if (/[};]\s*$/.test(start) && !/\{\s*$/.test(start))
    return { start: startIndex + 1, end: startIndex + 1 };
  const indent = declaration.exec(start)![1]!;
  for (let i = startIndex + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith(`${indent}}`)) return { start: startIndex + 1, end: i + 1 };
  }
  return undefined;
}

/** `find_function`: where a named function is in a repository file and how many lines it spans. */
export function findFunctionTool(root: string) {
  return tool({
    name: 'find_function',
    description:
      'Finds a function declared in a repository file: its first and last line and its line count (declaration to closing brace).',
    parameters: z.object({ path: z.string().min(1), name: z.string().min(1) }),
    execute: async ({ path, name }, { signal }) => {
      const lines = await readConfined(root, path, signal);
      const found = locateFunction(lines, name);
      if (found === undefined) throw new Error(`No function "${name}" in ${path}.`);
      const count = found.end - found.start + 1;
      return `${name}: lines ${found.start}-${found.end} of ${path} (${count} lines)`;
    },
  });
}
