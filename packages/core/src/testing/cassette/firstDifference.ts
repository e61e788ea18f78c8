/** Where two JSON values first differ: the JSON path and the value on each side. */
export interface JsonDifference {
  /** `messages[2].content`, `tools[0].function.name`, or `""` for the values themselves. */
  readonly path: string;
  /** The recorded value (`undefined` when the recorded side has nothing there). */
  readonly expected: unknown;
  /** The value received (`undefined` when it has nothing there). */
  readonly actual: unknown;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * The first place, depth first in key order of `expected` (then keys only `actual` has),
 * where two JSON values differ, or `undefined` when they are equal. Arrays differ at the
 * first differing index, or at the first index one of them lacks.
 */
export function firstDifference(
  expected: unknown,
  actual: unknown,
  path = '',
): JsonDifference | undefined {
  if (Object.is(expected, actual)) return undefined;
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const length = Math.max(expected.length, actual.length);
    for (let i = 0; i < length; i++) {
      const found = firstDifference(expected[i], actual[i], `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (isObject(expected) && isObject(actual)) {
    for (const key of Object.keys(expected)) {
      const found = firstDifference(expected[key], actual[key], join(path, key));
      if (found) return found;
    }
    for (const key of Object.keys(actual)) {
      if (!Object.hasOwn(expected, key)) {
        return { path: join(path, key), expected: undefined, actual: actual[key] };
      }
    }
    return undefined;
  }
  return { path, expected, actual };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function join(path: string, key: string): string {
  if (IDENTIFIER.test(key)) return path === '' ? key : `${path}.${key}`;
  return `${path}[${JSON.stringify(key)}]`;
}
