import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PACKAGE = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(PACKAGE, 'bin', 'rxagent-eval.js');
const FIXTURES = join(PACKAGE, 'test', 'fixtures');

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the command in a real Node process on the sources, as the workspace does. */
function rxagentEval(args: readonly string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--conditions=@rxagent/source', '--import', 'tsx', BIN, ...args],
      {
        cwd: PACKAGE,
        env: { ...process.env, NODE_OPTIONS: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('rxagent-eval', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rxagent-eval-cli-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('runs an eval module, prints the summary, writes the report and exits 0 at the threshold', async () => {
    // A relative --out is resolved against the working directory.
    const out = relative(PACKAGE, join(dir, 'relative'));
    const run = await rxagentEval([
      join(FIXTURES, 'capitals.eval.ts'),
      '--threshold',
      '0.6',
      '--out',
      out,
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('capitals: 4 runs');
    expect(run.stdout).toMatch(/exactMatch {2}mean 0\.500 {2}pass 50\.0%/);
    expect(run.stdout).toMatch(/includes {4}mean 0\.750 {2}pass 75\.0%/);
    expect(run.stdout).toContain('score 0.625 — threshold 0.6: pass');
    expect(run.stdout).toContain(`report: ${join(dir, 'relative', 'report.html')}`);
  }, 60_000);

  it('exits 1 below the threshold, with the report written', async () => {
    const out = join(dir, 'report');
    const run = await rxagentEval([
      join(FIXTURES, 'capitals.eval.ts'),
      '--threshold',
      '0.9',
      '--out',
      out,
      '--trials',
      '2',
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('capitals: 8 runs');
    expect(run.stdout).toContain('below the threshold 0.9: FAIL');
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8'));
    expect(report.score).toBeCloseTo(0.625);
    expect(report.cases).toHaveLength(8);
    expect(await readFile(join(out, 'report.html'), 'utf8')).toContain(
      'href="traces/001-france.html"',
    );
  }, 60_000);

  it('exits 2 with one line for bad usage: options, a missing module, a module without a config, an --out under a file', async () => {
    const oneLine = (run: Run) => {
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(run.stderr).not.toMatch(/\n\s+at /);
      return run.stderr;
    };
    const capitals = join(FIXTURES, 'capitals.eval.ts');
    expect(oneLine(await rxagentEval(['--threshold', 'high', 'x.ts']))).toContain(
      '--threshold must be a number, not "high"',
    );
    expect(oneLine(await rxagentEval([capitals, '--concurrency', '0']))).toContain(
      '--concurrency must be a whole number of at least 1, not 0',
    );
    expect(oneLine(await rxagentEval([capitals, '--trials', '1.5']))).toContain(
      '--trials must be a whole number of at least 1, not 1.5',
    );
    const missing = join(dir, 'missing.eval.ts');
    expect(oneLine(await rxagentEval([missing]))).toBe(
      `rxagent-eval: no eval module at ${missing}.\n`,
    );
    const broken = await rxagentEval([join(FIXTURES, 'broken.eval.ts'), '--out', join(dir, 'b')]);
    expect(oneLine(broken)).toContain('exports no eval config');
    const file = join(dir, 'a-file');
    await writeFile(file, 'not a directory');
    expect(oneLine(await rxagentEval([capitals, '--out', join(file, 'out')]))).toContain(
      `${file} is a file, not a directory`,
    );
  }, 120_000);
});
