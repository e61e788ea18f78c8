import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Toolkit, type ToolResultBlock } from '@rxagent/core';
import { lastValueFrom } from 'rxjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { findFunctionTool, locateFunction, readFileTool } from '../src/repoTools.js';

let root: string;

beforeAll(() => {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'rxagent-code-assistant-')));
  root = join(base, 'repo');
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(root, 'src', 'a.ts'), 'export function f(o: { a: 1 }): void {\n  g();\n}\n');
  writeFileSync(join(base, 'secret.txt'), 'top secret\n');
  symlinkSync(join(base, 'secret.txt'), join(root, 'escape.txt'));
  symlinkSync(join(root, 'src', 'a.ts'), join(root, 'alias.ts'));
});

async function run(name: string, input: Record<string, string>): Promise<ToolResultBlock> {
  const toolkit = new Toolkit([readFileTool(root), findFunctionTool(root)]);
  const event = await lastValueFrom(
    toolkit.execute(
      { id: 'c1', name, input },
      { signal: new AbortController().signal, toolCallId: 'c1' },
    ),
  );
  if (event.type !== 'result') throw new Error('expected a result');
  return event.result;
}

describe('read_file', () => {
  it('reads a file inside the root with line numbers', async () => {
    const result = await run('read_file', { path: 'src/a.ts' });
    expect(result.isError).toBeUndefined();
    expect(result.output).toBe(
      'src/a.ts (3 lines)\n1| export function f(o: { a: 1 }): void {\n2|   g();\n3| }',
    );
  });

  it('rejects path traversal out of the root with a clear tool error', async () => {
    const result = await run('read_file', { path: '../secret.txt' });
    expect(result.isError).toBe(true);
    expect(result.output).toContain(
      'Access denied: "../secret.txt" is outside the repository root',
    );
    expect(result.output).not.toContain('top secret');
  });

  it('rejects an absolute path outside the root', async () => {
    const result = await run('read_file', { path: '/etc/passwd' });
    expect(result.isError).toBe(true);
    expect(result.output).toContain('outside the repository root');
  });

  it('rejects a symlink inside the root that points outside it', async () => {
    const result = await run('read_file', { path: 'escape.txt' });
    expect(result.isError).toBe(true);
    expect(result.output).toContain('is a symbolic link to a location outside the repository root');
    expect(result.output).not.toContain('top secret');
  });

  it('follows a symlink that stays inside the root', async () => {
    const result = await run('read_file', { path: 'alias.ts' });
    expect(result.isError).toBeUndefined();
  });

  it('reports a missing file', async () => {
    const result = await run('read_file', { path: 'nope.ts' });
    expect(result.output).toContain('No such file: "nope.ts"');
  });
});

describe('find_function', () => {
  it('counts a function whose parameter types hold braces', async () => {
    const result = await run('find_function', { path: 'src/a.ts', name: 'f' });
    expect(result.output).toBe('f: lines 1-3 of src/a.ts (3 lines)');
  });

  it('is confined to the root like read_file', async () => {
    const result = await run('find_function', { path: '../secret.txt', name: 'f' });
    expect(result.isError).toBe(true);
  });

  it('finds one-line and const functions', () => {
    expect(locateFunction(['const add = (a, b) => a + b;'], 'add')).toEqual({ start: 1, end: 1 });
    expect(locateFunction(['  function x() {', '    return 1;', '  }', '}'], 'x')).toEqual({
      start: 1,
      end: 3,
    });
    expect(locateFunction(['function xy() {}'], 'x')).toBeUndefined();
  });
});
