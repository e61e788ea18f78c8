import { textOf } from '@rxagent/core';
import type { CaseResult, EvalReport } from './evalReport.js';
import { clip, escapeHtml, formatMs, pageHead } from './html/escapeHtml.js';
import { PAGE_CSS } from './html/pageCss.js';

const pct = (value: number) => `${(value * 100).toFixed(1)}%`;

/**
 * The report as one self-contained HTML page (no script, a CSP that forbids every fetch):
 * the totals (score, pass rate, latency p50/p95, tokens), a table of scorers (mean, pass
 * rate), and a table of runs with each scorer's score and reason, the latency, the tokens,
 * the reply and, when `traceHref` gives one, a link to the run's trace page. Every value
 * from the report is escaped, counts too: a report read back from JSON may hold anything.
 */
export function reportHtml(
  report: EvalReport,
  traceHref: (result: CaseResult, index: number) => string | undefined = () => undefined,
): string {
  const names = Object.keys(report.scorers);
  const stat = (value: string, label: string) =>
    `<div class="stat"><b>${escapeHtml(value)}</b><span>${label}</span></div>`;
  const scorerRows = names.map((name) => {
    const summary = report.scorers[name]!;
    return `<tr data-kind="scorer"><td>${escapeHtml(name)}</td><td class="num">${summary.mean.toFixed(3)}</td><td class="num">${pct(summary.passRate)}</td></tr>`;
  });
  const trials = report.cases.some((result) => result.trial > 0);
  const caseRows = report.cases.map((result, index) =>
    caseRow(result, names, trials, traceHref(result, index)),
  );
  return [
    pageHead(`${report.name} — eval report`, PAGE_CSS),
    '<body><main>',
    `<h1>${escapeHtml(report.name)}</h1>`,
    `<p class="sub">${escapeHtml(String(report.cases.length))} runs · started ${escapeHtml(report.startedAt)} · took ${formatMs(report.durationMs)}</p>`,
    '<div class="stats">',
    stat(report.score.toFixed(3), 'score (mean of scorers)'),
    stat(pct(report.passRate), 'runs passing every scorer'),
    stat(formatMs(report.latency.p50), 'latency p50'),
    stat(formatMs(report.latency.p95), 'latency p95'),
    stat(
      String(report.tokens.totalTokens),
      escapeHtml(`tokens (${report.tokens.inputTokens} in / ${report.tokens.outputTokens} out)`),
    ),
    stat(String(report.errors), 'failed runs'),
    '</div>',
    '<h2>Scorers</h2>',
    `<div class="scroll"><table><thead><tr><th>scorer</th><th class="num">mean</th><th class="num">pass rate</th></tr></thead><tbody>${scorerRows.join('')}</tbody></table></div>`,
    '<h2>Runs</h2>',
    `<div class="scroll"><table><thead><tr><th>case</th>${trials ? '<th class="num">trial</th>' : ''}${names.map((name) => `<th>${escapeHtml(name)}</th>`).join('')}<th class="num">latency</th><th class="num">tokens</th><th>reply</th><th>trace</th></tr></thead><tbody>${caseRows.join('')}</tbody></table></div>`,
    '</main></body></html>',
  ].join('\n');
}

function caseRow(
  result: CaseResult,
  names: readonly string[],
  trials: boolean,
  href: string | undefined,
): string {
  const trial = trials ? `<td class="num">${escapeHtml(String(result.trial + 1))}</td>` : '';
  const scores = names.map((name) => {
    const score = result.scores[name];
    const value = score?.score ?? 0;
    const badge = value === 1 ? 'ok' : value === 0 ? 'bad' : 'warn';
    return `<td><span class="badge ${badge}">${value.toFixed(2)}</span> <span class="meta">${escapeHtml(clip(score?.reason ?? '', 160))}</span></td>`;
  });
  const reply = result.reply ? textOf(result.reply) : `error: ${result.error ?? 'unknown'}`;
  const link = href ? `<a href="${escapeHtml(href)}">trace</a>` : '';
  return `<tr data-kind="case" data-case="${escapeHtml(result.id)}" data-passed="${escapeHtml(String(result.passed))}"><td>${escapeHtml(result.id)}</td>${trial}${scores.join('')}<td class="num">${formatMs(result.latencyMs)}</td><td class="num">${escapeHtml(String(result.usage.totalTokens))}</td><td>${escapeHtml(clip(reply, 240))}</td><td>${link}</td></tr>`;
}
