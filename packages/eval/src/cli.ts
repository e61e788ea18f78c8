import { isAbsolute, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { InvalidArgumentError } from '@rxagent/core';
import type { EvalReport } from './evalReport.js';
import { evaluate } from './evaluate.js';
import { loadEvalModule } from './loadEvalModule.js';
import type { ProgressOut } from './progressLine.js';
import { UsageError } from './usageError.js';
import { writeReport } from './writeReport.js';

/** Where the command writes and what it resolves paths against. */
export interface CliIo {
  readonly stdout: ProgressOut;
  readonly stderr: ProgressOut;
  readonly cwd: string;
}

const USAGE = `usage: rxagent-eval FILE [--threshold 0..1] [--out DIR] [--concurrency N] [--trials N] [--name NAME]

Runs the eval module FILE (its default export, or export "config": the options of evaluate(),
or a function returning them), prints a summary, writes DIR/report.json, DIR/report.html and
a trace page per run (default DIR: eval-report), and exits 1 when the score (the mean of the
scorers' means) is below --threshold (or the evaluation failed), 2 for bad usage.`;

/**
 * The `rxagent-eval` command: resolves with its exit code after printing the summary to
 * `io.stdout` and any problem to `io.stderr`: 0 passed; 1 below the threshold, or an error
 * while the evaluation ran (with its stack); 2 for bad usage, with a one-line message — bad
 * options (`--concurrency 0`), no module at FILE, a TypeScript module without tsx, a module
 * that exports no config or bad options of `evaluate()` in it, an `--out` that cannot be a
 * directory.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.write(`${oneLine(message)} (rxagent-eval --help shows the usage.)\n`);
    return 2;
  }
  if (parsed.help) {
    io.stdout.write(`${USAGE}\n`);
    return 0;
  }
  try {
    const config = await loadEvalModule(resolve(io.cwd, parsed.file));
    const report = await evaluate({
      ...config,
      ...(parsed.concurrency !== undefined && { concurrency: parsed.concurrency }),
      ...(parsed.trials !== undefined && { trials: parsed.trials }),
      ...(parsed.name !== undefined && { name: parsed.name }),
      progress: config.progress ?? io.stderr,
    }).catch(asUsageError);
    const out = isAbsolute(parsed.out) ? parsed.out : resolve(io.cwd, parsed.out);
    const written = await writeReport(report, out).catch(asUsageError);
    io.stdout.write(summaryText(report, written.html, parsed.threshold));
    return parsed.threshold !== undefined && report.score < parsed.threshold ? 1 : 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`${oneLine(error.message)}\n`);
      return 2;
    }
    io.stderr.write(
      `rxagent-eval: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return 1;
  }
}

/**
 * `evaluate()` rejects with `TypeError` or `InvalidArgumentError` only for bad options or a
 * bad dataset, before any run, and `writeReport` with `InvalidArgumentError` for an `--out`
 * that cannot be a directory: both are the invocation's fault.
 */
function asUsageError(error: unknown): never {
  if (error instanceof TypeError || error instanceof InvalidArgumentError)
    throw new UsageError(
      error.message.startsWith('rxagent-eval') ? error.message : `rxagent-eval: ${error.message}`,
      { cause: error },
    );
  throw error;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}

function parse(argv: readonly string[]) {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      threshold: { type: 'string' },
      out: { type: 'string', default: 'eval-report' },
      concurrency: { type: 'string' },
      trials: { type: 'string' },
      name: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return { help: true, file: '', out: '' } as const;
  if (positionals.length !== 1) throw new Error('rxagent-eval: give exactly one eval module FILE.');
  const threshold = numberOption(values.threshold, 'threshold');
  if (threshold !== undefined && (threshold < 0 || threshold > 1)) {
    throw new Error(`rxagent-eval: --threshold must be between 0 and 1, not ${threshold}.`);
  }
  return {
    help: false,
    file: positionals[0]!,
    out: values.out,
    threshold,
    concurrency: countOption(values.concurrency, 'concurrency'),
    trials: countOption(values.trials, 'trials'),
    name: values.name,
  } as const;
}

function numberOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number)) {
    throw new Error(`rxagent-eval: --${name} must be a number, not "${value}".`);
  }
  return number;
}

function countOption(value: string | undefined, name: string): number | undefined {
  const number = numberOption(value, name);
  if (number !== undefined && !(Number.isSafeInteger(number) && number > 0)) {
    throw new Error(`rxagent-eval: --${name} must be a whole number of at least 1, not ${value}.`);
  }
  return number;
}

function summaryText(report: EvalReport, html: string, threshold: number | undefined): string {
  const pct = (value: number) => `${(value * 100).toFixed(1)}%`;
  const lines = [
    `${report.name}: ${report.cases.length} runs in ${(report.durationMs / 1000).toFixed(2)} s`,
  ];
  const width = Math.max(...Object.keys(report.scorers).map((name) => name.length));
  for (const [name, summary] of Object.entries(report.scorers)) {
    lines.push(
      `  ${name.padEnd(width)}  mean ${summary.mean.toFixed(3)}  pass ${pct(summary.passRate)}`,
    );
  }
  lines.push(
    `  latency p50 ${report.latency.p50.toFixed(0)} ms, p95 ${report.latency.p95.toFixed(0)} ms · tokens ${report.tokens.totalTokens} · failed runs ${report.errors}`,
  );
  const verdict =
    threshold === undefined
      ? ''
      : report.score < threshold
        ? ` — below the threshold ${threshold}: FAIL`
        : ` — threshold ${threshold}: pass`;
  lines.push(`score ${report.score.toFixed(3)}${verdict}`, `report: ${html}`, '');
  return lines.join('\n');
}
