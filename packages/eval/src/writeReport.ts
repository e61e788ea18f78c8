import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
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
 * report links. Resolves with the paths written; rejects with the file system's error.
 */
export async function writeReport(report: EvalReport, dir: string): Promise<WrittenReport> {
  const traceDir = join(dir, 'traces');
  await mkdir(traceDir, { recursive: true });
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
