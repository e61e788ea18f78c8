/** Keywords whose values are instance data, not subschemas. */
const DATA_KEYWORDS = new Set(['default', 'const', 'enum', 'examples', 'example']);

/** Every `$ref` string of a JSON Schema, subschemas only (not inside `default`, `enum`, ...). */
export function refsOf(node: unknown, refs: string[] = []): string[] {
  if (Array.isArray(node)) {
    for (const item of node) refsOf(item, refs);
  } else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') refs.push(value);
      else if (!DATA_KEYWORDS.has(key)) refsOf(value, refs);
    }
  }
  return refs;
}

/** Follows a local JSON pointer (`#`, `#/a/b`) from `root`; `undefined` when it leads nowhere. */
export function resolvePointer(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null || !(segment in node)) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return typeof node === 'object' && node !== null ? node : undefined;
}

/** The `$ref`s of `schema` that do not resolve to a subschema of it (empty when all do). */
export function unresolvedRefs(schema: unknown): string[] {
  return refsOf(schema).filter((ref) => resolvePointer(schema, ref) === undefined);
}
