import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { JsonFileSession } from '@rxagent/core';
import { captureOutput } from '@rxagent/example-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { runGate } from '../src/gate/runGate.js';
import type { LoopState } from '../src/loopState.js';
import { main } from '../src/main.js';
import { resolveInside } from '../src/workDirTools.js';

const EXAMPLE_DIR = fileURLToPath(new URL('..', import.meta.url));
const OFFLINE = { ...process.env, OPENAI_API_KEY: '', OPENAI_BASE_URL: '', NO_COLOR: '1' };
const dirs: string[] = [];
const children: ChildProcess[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ralph-loop-'));
  dirs.push(dir);
  return dir;
}

/** Runs the program as its own process; `killWhen` SIGKILLs it once its stdout contains the text. */
function runProgram(
  dir: string,
  killWhen?: string,
): Promise<{ stdout: string; code: number | null; signal: NodeJS.Signals | null }> {
  const child = spawn(
    process.execPath,
    ['--conditions=@rxagent/source', '--import', 'tsx', 'src/main.ts', '--dir', dir],
    { cwd: EXAMPLE_DIR, env: OFFLINE, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    if (killWhen !== undefined && stdout.includes(killWhen)) child.kill('SIGKILL');
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code !== 0 && signal === null) reject(new Error(`exit ${code}: ${stderr}`));
      else resolve({ stdout, code, signal });
    });
  });
}

describe('ralph-loop example (offline)', () => {
  it('continues after the last saved step when the process is killed and restarted', {
    timeout: 60_000,
  }, async () => {
    const dir = await tempDir();

    const killed = await runProgram(dir, 'step 2 finished');
    const session = new JsonFileSession(join(dir, 'state'));
    const saved = await session.load('ralph-loop');
    const restarted = await runProgram(dir);

    expect(killed.signal).toBe('SIGKILL');
    expect(killed.stdout).toMatch(/^mode: offline/);
    expect(killed.stdout).not.toContain('done:');
    const savedStep = Number(saved?.['step']);
    expect(savedStep).toBeGreaterThanOrEqual(2);
    expect(savedStep).toBeLessThan(5);
    expect(restarted.code).toBe(0);
    expect(restarted.stdout).toContain(`resuming at step ${savedStep + 1}`);
    expect(restarted.stdout).not.toContain('new loop');
    const stepsRun = [...restarted.stdout.matchAll(/^── step (\d+)/gmu)].map((m) => Number(m[1]));
    expect(stepsRun[0]).toBe(savedStep + 1);
    expect(restarted.stdout).toContain('done: all 4 checks pass after 5 steps');
    const final = (await session.load('ralph-loop')) as unknown as LoopState;
    expect(final.history.map((entry) => entry.step)).toEqual([1, 2, 3, 4, 5]);
    expect((await runGate(join(dir, 'work'))).passing).toHaveLength(4);
  });

  it('rolls back a step the gate rejects, stops at the step limit and at a STOP file, then finishes', async () => {
    const dir = await tempDir();
    const run = (options: { maxSteps?: number }) =>
      main({ out: captureOutput().out, env: {}, dir, ...options });

    const first = await run({ maxSteps: 2 });
    await writeFile(join(dir, 'work', 'STOP'), '');
    const stopped = await run({});
    await rm(join(dir, 'work', 'STOP'));
    const last = await run({});

    expect(first.stoppedBy).toBe('max-steps');
    expect(first.state.history.map((entry) => entry.counted)).toEqual([true, false]);
    expect(stopped.stoppedBy).toBe('stop-file');
    expect(stopped.stepsRun).toEqual([]);
    expect(last.resumedAfter).toBe(2);
    expect(last.stepsRun).toEqual([3, 4, 5]);
    expect(last.stoppedBy).toBe('done');
    const lib = await readFile(join(dir, 'work', 'lib.mjs'), 'utf8');
    expect(lib).toContain("replace(/[\\u0300-\\u036f]/g, '')");
  });

  it('confines the file tools to the work dir', async () => {
    const root = await tempDir();
    await symlink(tmpdir(), join(root, 'escape'));

    await expect(resolveInside(root, '../outside.txt')).rejects.toThrow(/outside the work dir/);
    await expect(resolveInside(root, '/etc/passwd')).rejects.toThrow(/absolute/);
    await expect(resolveInside(root, 'escape')).rejects.toThrow(/symlink/);
    await expect(resolveInside(root, 'escape/x.txt')).rejects.toThrow(/outside the work dir/);
    expect(await resolveInside(root, 'lib.mjs')).toBe(join(root, 'lib.mjs'));
  });
});
