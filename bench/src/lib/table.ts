import type { BudgetCheck, Row, SuiteResult } from './result.js';

/** Formats a number for a table: 3 significant digits, thousands kept whole. */
export function fmt(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 1000) return Math.round(value).toLocaleString('en-US');
  if (abs >= 100) return value.toFixed(0);
  if (abs >= 10) return value.toFixed(1);
  if (abs >= 1) return value.toFixed(2);
  return value.toPrecision(3);
}

function line(cells: readonly string[], widths: readonly number[]): string {
  return cells
    .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
    .join('  ');
}

function cellsOf(r: Row): string[] {
  return [r.label, fmt(r.median), `${fmt(r.min)} – ${fmt(r.max)}`, r.unit, String(r.n)];
}

/** The text table of one suite: its rows (median, min–max) and its budget lines. */
export function renderSuite(suite: SuiteResult): string {
  const header = ['', 'median', 'min – max', 'unit', 'n'];
  const body = suite.rows.map(cellsOf);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => cells[i]!.length)));
  const out = [
    `\n## ${suite.title}`,
    line(header, widths),
    ...body.map((cells) => line(cells, widths)),
  ];
  for (const b of suite.budgets) out.push(budgetText(b));
  return out.join('\n');
}

/** One budget line as the console shows it: PASS or MISS, the value and the limit. */
export function budgetText(b: BudgetCheck): string {
  return `${b.pass ? 'PASS' : 'MISS'}  ${b.line}: ${fmt(b.value)} ${b.unit} (limit ${limitText(b)})`;
}

function limitText(b: BudgetCheck): string {
  return `${b.bound === 'min' ? '≥ ' : ''}${fmt(b.limit)}`;
}

/** A Markdown table of one suite, for BENCHMARKS.md. */
export function markdownSuite(suite: SuiteResult): string {
  const out = [`### ${suite.title}`, '', '| | median | min – max | unit |', '|---|---:|---:|---|'];
  for (const r of suite.rows)
    out.push(`| ${r.label} | ${fmt(r.median)} | ${fmt(r.min)} – ${fmt(r.max)} | ${r.unit} |`);
  if (suite.budgets.length > 0) out.push('');
  for (const b of suite.budgets) {
    out.push(
      `- ${b.pass ? '✅' : '❌'} ${b.line}: **${fmt(b.value)} ${b.unit}** (limit ${limitText(b)})`,
    );
  }
  return out.join('\n');
}
