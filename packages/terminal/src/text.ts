import { type Usage, usageCacheRatio } from '@rxagent/core';

/** `text` cut to `max` characters, with an ellipsis when it was longer. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/** The first non-empty line of `text` (trimmed), marked with `…` when more lines follow. */
export function firstLine(text: string): string {
  const lines = text.split('\n');
  const index = lines.findIndex((line) => line.trim() !== '');
  if (index === -1) return '';
  const line = lines[index]!.trim();
  const more = lines.slice(index + 1).some((rest) => rest.trim() !== '');
  return more ? `${line} …` : line;
}

/** All non-empty lines of `text`, trimmed and joined by spaces. */
export function oneLine(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join(' ');
}

/** Compact JSON for one line (`{"city":"Shanghai"}`); values JSON cannot hold print as `null`. */
export function compactJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    return String(value);
  }
}

/** `0.4 s`, `12.3 s`, `2 min 5 s`. */
export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, ms) / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${Math.round(seconds - minutes * 60)} s`;
}

/** `950`, `12.1k`, `3.4M`: a count short enough for a status line. */
export function formatCount(count: number): string {
  if (count < 1_000) return String(count);
  if (count < 1_000_000) return `${(count / 1_000).toFixed(1)}k`;
  return `${(count / 1_000_000).toFixed(1)}M`;
}

/**
 * `345 in / 67 out tokens`, with the prompt-cache hit ratio when some input was read from a
 * cache (`1200 in (85% cached) / 67 out tokens`), or `undefined` when the model reported no
 * usage.
 */
export function formatUsage(usage: unknown): string | undefined {
  if (!isUsage(usage)) return undefined;
  const ratio = usageCacheRatio(usage);
  const cached =
    ratio !== undefined && (usage.cachedInputTokens ?? 0) > 0
      ? ` (${Math.round(ratio * 100)}% cached)`
      : '';
  return `${usage.inputTokens} in${cached} / ${usage.outputTokens} out tokens`;
}

function isUsage(value: unknown): value is Usage {
  if (typeof value !== 'object' || value === null) return false;
  const { inputTokens, outputTokens } = value as Partial<Usage>;
  return typeof inputTokens === 'number' && typeof outputTokens === 'number';
}
