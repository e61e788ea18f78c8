import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidArgumentError } from '@rxagent/core';
import { EchoAgent } from '@rxagent/core/testing';
import { evaluate, includes, writeReport } from '@rxagent/eval';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('writeReport', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rxagent-write-report-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const report = () =>
    evaluate({
      dataset: [{ id: 'echo', input: 'hello', expected: 'hello' }],
      agent: () => new EchoAgent({ name: 'echo' }),
      scorers: [includes()],
    });

  it('writes the report, its page and a trace page per run into a new directory', async () => {
    const written = await writeReport(await report(), join(dir, 'new', 'deep'));
    expect(JSON.parse(await readFile(written.json, 'utf8')).cases).toHaveLength(1);
    expect(written.traces).toHaveLength(1);
  });

  it('names the file in the way when the directory is under a file, or is one', async () => {
    const file = join(dir, 'notes.txt');
    await writeFile(file, 'a file');
    for (const target of [join(file, 'report'), file]) {
      const error = await writeReport(await report(), target).catch((e: unknown) => e);
      expect(error, target).toBeInstanceOf(InvalidArgumentError);
      expect((error as Error).message).toBe(
        `writeReport: cannot write the report to ${target}: ${file} is a file, not a directory. Give a directory path (it is created when missing).`,
      );
    }
  });

  it('names a directory standing where the report writes a file', async () => {
    const target = join(dir, 'taken');
    await mkdir(join(target, 'report.json'), { recursive: true });
    const error = await writeReport(await report(), target).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toContain(
      `${join(target, 'report.json')} is a directory, where the report writes a file`,
    );
  });
});
