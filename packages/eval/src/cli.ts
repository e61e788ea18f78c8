import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { EvalReport } from './evalReport.js';
import { type EvaluateOptions, evaluate } from './evaluate.js';
import type { ProgressOut } from './progressLine.js';
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
scorers' means) is below --threshold.`;

/**
 * The `rxagent-eval` command: resolves with its exit code (0 passed, 1 below the threshold
 * or failed, 2 for bad usage) after printing the summary to `io.stdout` and any problem to
 * `io.stderr`.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    io.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}\n`);
    return 2;
  }
  if (parsed.help) {
    io.stdout.write(`${USAGE}\n`);
    return 0;
  }
  try {
    const config = await loadConfig(resolve(io.cwd, parsed.file));
    const report = await evaluate({
      ...config,
      ...(parsed.concurrency !== undefined && { concurrency: parsed.concurrency }),
      ...(parsed.trials !== undefined && { trials: parsed.trials }),
      ...(parsed.name !== undefined && { name: parsed.name }),
      progress: config.progress ?? io.stderr,
    });
    const out = isAbsolute(parsed.out) ? parsed.out : resolve(io.cwd, parsed.out);
    const written = await writeReport(report, out);
    io.stdout.write(summaryText(report, written.html, parsed.threshold));
    return parsed.threshold !== undefined && report.score < parsed.threshold ? 1 : 0;
  } catch (error) {
    io.stderr.write(
      `rxagent-eval: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return 1;
  }
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
    concurrency: numberOption(values.concurrency, 'concurrency'),
    trials: numberOption(values.trials, 'trials'),
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

async function loadConfig(path: string): Promise<EvaluateOptions> {
  const module = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  const exported = module['default'] ?? module['config'];
  const config = typeof exported === 'function' ? await (exported as () => unknown)() : exported;
  if (typeof config !== 'object' || config === null) {
    throw new TypeError(
      `${path} exports no eval config: export default the options of evaluate() (or a function returning them).`,
    );
  }
  return config as EvaluateOptions;
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
