import { type AgentEvent, type Usage, usageCacheRatio } from '@rxagent/core';
import { clip, escapeHtml, formatMs, pageHead, prettyJson } from '../html/escapeHtml.js';
import { PAGE_CSS } from '../html/pageCss.js';
import type { TraceEntry } from './traceEntry.js';
import {
  buildTraceModel,
  type TraceCall,
  type TraceLane,
  type TraceModel,
  type TraceModelRequest,
  type TraceStep,
  type TraceToolCall,
} from './traceModel.js';

/** Options of `traceHtml`. */
export interface TraceHtmlOptions {
  /** The page's title (default `"rxagent trace"`). */
  readonly title?: string;
}

const TEXT_LIMIT = 4_000;

/**
 * One self-contained HTML page of a run: a timeline with a lane per agent (calls, model
 * requests, tool calls, and markers for interrupts, approvals, denials, errors and hub
 * deliveries), then each call's steps — every model request with its tokens, latency, time
 * to first chunk and what it said, every tool call with its arguments, result, duration and
 * status — then every event in order. `events` are a `stream()`'s events (numbered in order:
 * no timing) or timed `TraceEntry`s (from `recordTrace`, `toTraceEntry` or an eval case's
 * `trace`). The page has no script and a Content-Security-Policy that forbids every fetch:
 * opening it makes no network request. Pure: returns the page as a string.
 */
export function traceHtml(
  events: readonly (AgentEvent | TraceEntry)[],
  options: TraceHtmlOptions = {},
): string {
  const model = buildTraceModel(events);
  const title = options.title ?? 'rxagent trace';
  return [
    pageHead(title, PAGE_CSS),
    '<body><main>',
    `<h1>${escapeHtml(title)}</h1>`,
    summaryHtml(model),
    '<h2>Timeline</h2>',
    timelineHtml(model),
    ...model.lanes.map((lane) => laneHtml(lane, model.timed)),
    eventLogHtml(model),
    '</main></body></html>',
  ].join('\n');
}

function duration(model: TraceModel, start: number, end: number | undefined): string {
  if (!model.timed) return '';
  return end === undefined ? 'did not end' : formatMs(end - start);
}

/**
 * The share of the requests' input tokens a prompt cache served, over the requests whose
 * usage says (`cachedInputTokens`); `undefined` when none does.
 */
function cacheShare(usages: readonly (Usage | undefined)[]): number | undefined {
  let input = 0;
  let cached = 0;
  let known = false;
  for (const usage of usages) {
    if (usage?.cachedInputTokens === undefined) continue;
    known = true;
    input += usage.inputTokens;
    cached += usage.cachedInputTokens;
  }
  return known
    ? (usageCacheRatio({
        inputTokens: input,
        outputTokens: 0,
        totalTokens: input,
        cachedInputTokens: cached,
      }) ?? 0)
    : undefined;
}

/** ` (85% cached)` after a request's input tokens when a cache served some of them. */
function cachedNote(usage: Usage): string {
  const ratio = usageCacheRatio(usage);
  return ratio === undefined || !(usage.cachedInputTokens! > 0)
    ? ''
    : ` (${Math.round(ratio * 100)}% cached)`;
}

function summaryHtml(model: TraceModel): string {
  const calls = model.lanes.flatMap((lane) => lane.calls);
  const steps = calls.flatMap((call) => call.steps);
  const tools = steps.flatMap((step) => step.tools);
  const tokens = steps.reduce((sum, step) => sum + (step.model.usage?.totalTokens ?? 0), 0);
  const cache = cacheShare(steps.map((step) => step.model.usage));
  const stat = (value: string | number, label: string) =>
    `<div class="stat"><b>${escapeHtml(String(value))}</b><span>${label}</span></div>`;
  return `<div class="stats">${[
    // A stream()'s events carry no time: their page counts them instead of timing the run.
    model.timed
      ? stat(formatMs(model.end - model.start), 'duration')
      : stat(model.entries.length, 'events'),
    stat(model.lanes.length, 'agents'),
    stat(calls.length, 'calls'),
    stat(steps.length, 'model requests'),
    stat(tools.length, 'tool calls'),
    stat(tokens, 'tokens'),
    ...(cache === undefined ? [] : [stat(`${Math.round(cache * 100)}%`, 'input from cache')]),
  ].join('')}</div>`;
}

function timelineHtml(model: TraceModel): string {
  const span = Math.max(model.end - model.start, 1);
  const x = (at: number) => (((at - model.start) / span) * 100).toFixed(3);
  const w = (start: number, end: number | undefined) =>
    Math.max((((end ?? model.end) - start) / span) * 100, 0.3).toFixed(3);
  const bar = (kind: string, start: number, end: number | undefined, label: string) =>
    `<div class="bar ${kind}" style="left:${x(start)}%;width:${w(start, end)}%" title="${escapeHtml(label)}"></div>`;
  const lanes = model.lanes.map((lane) => {
    const parts: string[] = [];
    for (const call of lane.calls) {
      parts.push(bar('call', call.start, call.end, `call ${call.number}`));
      for (const step of call.steps) {
        parts.push(bar(step.model.kind, step.model.start, step.model.end, `step ${step.number}`));
        for (const tool of step.tools) parts.push(bar('tool', tool.start, tool.end, tool.name));
      }
      for (const marker of call.markers) {
        parts.push(
          `<div class="mark ${marker.kind}" style="left:${x(marker.at)}%" title="${escapeHtml(marker.text)}"></div>`,
        );
      }
    }
    return `<div class="lane" data-lane="${escapeHtml(lane.name)}"><div class="lane-name">${escapeHtml(lane.name)}</div><div class="track">${parts.join('')}</div></div>`;
  });
  const legend = [
    ['var(--call)', 'call'],
    ['var(--model)', 'model request'],
    ['var(--tool)', 'tool call'],
    ['var(--warn)', 'approval / denial / stop'],
    ['var(--bad)', 'interrupt / error'],
    ['var(--ok)', 'hub delivery'],
  ]
    .map(([color, label]) => `<span><i style="background:${color}"></i>${label}</span>`)
    .join('');
  return `<div class="timeline">${lanes.join('')}<div class="legend">${legend}</div></div>`;
}

function laneHtml(lane: TraceLane, timed: boolean): string {
  const calls = lane.calls.map((call) => callHtml(lane, call, timed));
  return `<section class="lane-detail" data-lane="${escapeHtml(lane.name)}"><h2>${escapeHtml(lane.name)}</h2>${calls.join('')}</section>`;
}

function callHtml(lane: TraceLane, call: TraceCall, timed: boolean): string {
  const model = { timed } as TraceModel;
  const meta = [
    duration(model, call.start, call.end),
    call.usage ? `${call.usage.totalTokens} tokens` : '',
    call.generateReason ?? '',
  ].filter(Boolean);
  const markers = call.markers.map(
    (marker) =>
      `<div class="marker ${marker.kind}" data-kind="marker" data-marker="${marker.kind}">${markerIcon(marker.kind)} ${escapeHtml(marker.text)}</div>`,
  );
  return [
    `<details class="call" open data-kind="call"><summary>${escapeHtml(lane.name)} · call ${call.number} <span class="meta">${escapeHtml(meta.join(' · '))}</span></summary>`,
    call.input
      ? `<div class="meta">input</div><pre>${escapeHtml(clip(call.input, TEXT_LIMIT))}</pre>`
      : '',
    `<ol class="steps">${call.steps.map((step) => stepHtml(step, model)).join('')}</ol>`,
    markers.join(''),
    call.reply !== undefined
      ? `<div class="meta">reply</div><pre data-kind="reply">${escapeHtml(clip(call.reply, TEXT_LIMIT))}</pre>`
      : '',
    '</details>',
  ].join('');
}

function markerIcon(kind: string): string {
  const icons: Record<string, string> = {
    interrupt: '⏹',
    approval: '⏸',
    stop: '⏸',
    denied: '⛔',
    error: '✖',
    delivery: '↘',
    compress: '⇊',
    guardrail: '🛡',
    memory: '◈',
  };
  return icons[kind] ?? '•';
}

function stepHtml(step: TraceStep, model: TraceModel): string {
  return `<li class="step ${step.model.kind}" data-kind="step" data-step="${step.number}"><h3>step ${step.number}</h3>${modelHtml(step.model, model)}${step.tools.map((tool) => toolHtml(tool, model)).join('')}</li>`;
}

function modelHtml(request: TraceModelRequest, model: TraceModel): string {
  const usage = request.usage;
  const meta = [
    request.kind === 'summary' ? 'summary request' : 'model request',
    duration(model, request.start, request.end),
    request.firstChunkAt !== undefined && model.timed
      ? `first chunk ${formatMs(request.firstChunkAt - request.start)}`
      : '',
    usage ? `${usage.inputTokens} in${cachedNote(usage)} / ${usage.outputTokens} out tokens` : '',
    request.finishReason ?? '',
    `${request.messages} messages`,
    request.tools.length > 0 ? `tools: ${request.tools.join(', ')}` : '',
  ].filter(Boolean);
  const said = request.text ? `<pre>${escapeHtml(clip(request.text, TEXT_LIMIT))}</pre>` : '';
  const calls = request.toolCalls.length > 0 ? ` → calls ${request.toolCalls.join(', ')}` : '';
  return `<div class="card model" data-kind="model-request"><span class="meta">${escapeHtml(meta.join(' · ') + calls)}</span>${said}</div>`;
}

function toolHtml(tool: TraceToolCall, model: TraceModel): string {
  const status =
    tool.deniedReason !== undefined || tool.resultKind === 'denied'
      ? '<span class="badge warn">denied</span>'
      : tool.end === undefined
        ? '<span class="badge warn">did not finish</span>'
        : tool.isError
          ? '<span class="badge bad">error</span>'
          : '<span class="badge ok">ok</span>';
  const kind = tool.resultKind ? ` <span class="badge">${escapeHtml(tool.resultKind)}</span>` : '';
  const meta = [
    duration(model, tool.start, tool.end),
    tool.chunks > 0 ? `${tool.chunks} chunks` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  return [
    `<div class="card tool${tool.isError ? ' failed' : ''}" data-kind="tool-call" data-tool="${escapeHtml(tool.name)}" data-tool-id="${escapeHtml(tool.id)}">`,
    `<b>${escapeHtml(tool.name)}</b> ${status}${kind} <span class="meta">${escapeHtml(meta)}</span>`,
    `<div class="meta">arguments</div><pre data-kind="arguments">${escapeHtml(clip(prettyJson(tool.input), TEXT_LIMIT))}</pre>`,
    tool.output !== undefined
      ? `<div class="meta">result</div><pre data-kind="result">${escapeHtml(clip(tool.output, TEXT_LIMIT))}</pre>`
      : '',
    '</div>',
  ].join('');
}

function eventLogHtml(model: TraceModel): string {
  const rows = model.entries.map((entry, index) => {
    const at = model.timed ? formatMs(entry.at - model.start) : String(index + 1);
    return `<tr data-kind="event"><td class="num">${escapeHtml(at)}</td><td>${escapeHtml(entry.agent)}</td><td>${escapeHtml(String(entry.event.type))}</td></tr>`;
  });
  return `<h2>Events</h2><details><summary>All ${model.entries.length} events, in order</summary><div class="scroll"><table><thead><tr><th class="num">${model.timed ? 'at' : '#'}</th><th>agent</th><th>event</th></tr></thead><tbody>${rows.join('')}</tbody></table></div></details>`;
}
