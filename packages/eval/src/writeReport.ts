import { mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { InvalidArgumentError } from '@rxagent/core';
import type { CaseResult, EvalReport } from './evalReport.js';
import { reportHtml } from './reportHtml.js';
import { traceHtml } from './trace/traceHtml.js';

/** The files `writeReport` wrote. */
export interface WrittenReport {
  /** `<dir>/report.json`: the report as `evaluate` returned it. */
  readonly json: string;
  /** `<dir>/report.html`: the report page. */
  readonly html: string;
  /** `<dir>/traces/<n>-<case id>.html`: one trace page per run, linked from the report page. */
  readonly traces: readonly string[];
}

/** A file name for a run's trace page: numbered (unique), with the case id made path-safe. */
export function traceFileName(result: CaseResult, index: number): string {
  const safe = result.id.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 60);
  return `${String(index + 1).padStart(3, '0')}-${safe}${result.trial > 0 ? `-trial${result.trial + 1}` : ''}.html`;
}

/**
 * Writes `report` to `dir` (created when missing): `report.json`, `report.html` (one
 * self-contained page) and a self-contained trace page per run in `traces/`, which the
 * report links. Resolves with the paths written. Rejects with `InvalidArgumentError` naming
 * the file in the way when `dir` (or a folder above it, or one of the files to write) is a
 * file where a directory must be, or the reverse; otherwise with the file system's error
 * (which names the path).
 */
export async function writeReport(report: EvalReport, dir: string): Promise<WrittenReport> {
  const traceDir = join(dir, 'traces');
  await mkdir(traceDir, { recursive: true }).catch((error: unknown) =>
    inTheWay(error, dir, traceDir),
  );
  try {
    return await writeFiles(report, dir, traceDir);
  } catch (error) {
    return inTheWay(error, dir, traceDir);
  }
}

async function writeFiles(
  report: EvalReport,
  dir: string,
  traceDir: string,
): Promise<WrittenReport> {
  const names = report.cases.map(traceFileName);
  const traces = await Promise.all(
    report.cases.map(async (result, index) => {
      const path = join(traceDir, names[index]!);
      const title = `${report.name} · ${result.id}${result.trial > 0 ? ` · trial ${result.trial + 1}` : ''}`;
      await writeFile(path, traceHtml(result.trace, { title }));
      return path;
    }),
  );
  const json = join(dir, 'report.json');
  const html = join(dir, 'report.html');
  await writeFile(json, `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(
    html,
    reportHtml(report, (_result, index) => `traces/${names[index]}`),
  );
  return { json, html, traces };
}

/** The errors of a path that has a file where a directory must be, or a directory where a file must. */
const IN_THE_WAY = new Set(['ENOTDIR', 'EEXIST', 'EISDIR']);

/**
 * Rethrows a file system error of writing the report as `InvalidArgumentError` naming what
 * is in the way when a file stands where a directory must be (or the reverse).
 */
async function inTheWay(error: unknown, dir: string, traceDir: string): Promise<never> {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !IN_THE_WAY.has(code)) throw error;
  const path = (error as { path?: unknown }).path;
  if (code === 'EISDIR' && typeof path === 'string')
    throw new InvalidArgumentError(
      `writeReport: cannot write the report to ${dir}: ${path} is a directory, where the report writes a file. Move it away or give another directory.`,
      { cause: error },
    );
  const file = await fileOnTheWay(traceDir);
  throw new InvalidArgumentError(
    `writeReport: cannot write the report to ${dir}: ${file ?? dir} is a file, not a directory. Give a directory path (it is created when missing).`,
    { cause: error },
  );
}

/** The first path from `path` up that exists and is not a directory. */
async function fileOnTheWay(path: string): Promise<string | undefined> {
  for (let at = path; ; at = dirname(at)) {
    const found = await stat(at).catch(() => undefined);
    if (found !== undefined) return found.isDirectory() ? undefined : at;
    if (dirname(at) === at) return undefined;
  }
}
