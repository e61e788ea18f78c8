import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';

/** Attributes worth a glance in a tree line, in the order they are shown. */
const SHOWN: ReadonlyArray<readonly [key: string, label: string]> = [
  ['gen_ai.tool.call.id', 'id'],
  ['gen_ai.response.finish_reasons', 'finish'],
  ['gen_ai.usage.input_tokens', 'in'],
  ['gen_ai.usage.output_tokens', 'out'],
  ['rxagent.generate_reason', 'reason'],
  ['rxagent.interrupted', 'interrupted'],
  ['error.type', 'error'],
];

/**
 * Renders finished spans as a tree (children under their parent, in start order), one line
 * per span: name, duration, and a few GenAI attributes. Spans whose parent is not among
 * `spans` are roots.
 */
export function traceTree(spans: readonly ReadableSpan[]): string {
  const byStart = [...spans].sort((a, b) => toNanos(a.startTime) - toNanos(b.startTime));
  const ids = new Set(byStart.map((span) => span.spanContext().spanId));
  const children = new Map<string | undefined, ReadableSpan[]>();
  for (const span of byStart) {
    const parent = span.parentSpanContext?.spanId;
    const key = parent !== undefined && ids.has(parent) ? parent : undefined;
    children.set(key, [...(children.get(key) ?? []), span]);
  }
  const lines: string[] = [];
  const visit = (span: ReadableSpan, prefix: string, branch: string): void => {
    lines.push(`${prefix}${branch}${describe(span)}`);
    const kids = children.get(span.spanContext().spanId) ?? [];
    const nextPrefix = prefix + (branch === '' ? '' : branch === '└─ ' ? '   ' : '│  ');
    kids.forEach((kid, index) => {
      visit(kid, nextPrefix, index === kids.length - 1 ? '└─ ' : '├─ ');
    });
  };
  for (const root of children.get(undefined) ?? []) visit(root, '', '');
  return lines.join('\n');
}

function describe(span: ReadableSpan): string {
  const ms = toNanos(span.duration) / 1e6;
  const details = SHOWN.flatMap(([key, label]) => {
    const value = span.attributes[key];
    return value === undefined
      ? []
      : [`${label}=${Array.isArray(value) ? value.join(',') : String(value)}`];
  });
  const status = span.status.code === 2 ? ' ✗' : '';
  return `${span.name}${status}  (${ms.toFixed(1)} ms)${details.length > 0 ? `  ${details.join(' ')}` : ''}`;
}

function toNanos([seconds, nanos]: readonly [number, number]): number {
  return seconds * 1e9 + nanos;
}
