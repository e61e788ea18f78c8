import type { Style } from './style.js';
import { compactJson, truncate } from './text.js';

/** Longest tool-argument JSON or tool-result line shown, so one call never floods the screen. */
export const LINE_LIMIT = 160;

/** `→ get_weather {"city":"Paris"}`: a tool call and its arguments. */
export function toolCallLine(name: string, input: unknown, style: Style): string {
  return `${style.magenta(`→ ${name}`)} ${style.dim(truncate(compactJson(input), LINE_LIMIT))}`;
}
