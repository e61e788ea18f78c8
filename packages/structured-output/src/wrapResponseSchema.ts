import { isJsonObject, type JsonObject, type JsonValue } from '@rxagent/core';

/** Keywords whose values are instance data, not subschemas: a `$ref` inside them is not a reference. */
const DATA_KEYWORDS = new Set(['default', 'const', 'enum', 'examples', 'example']);

const RESPONSE_POINTER = '#/properties/response';

/**
 * Wraps a plain JSON Schema as the arguments of `generate_response`:
 * `{ type: 'object', properties: { response: <schema> }, required: ['response'] }`, with the
 * schema's `$defs` and `definitions` hoisted to the root so every `$ref` still resolves:
 * - `#/$defs/...` and `#/definitions/...` stay as they are (their targets moved with them);
 * - `#` (a recursive reference to the whole schema) points at the schema, which then lives
 *   in the definitions (`response` becomes a `$ref` to it) so no copy is made;
 * - any other local pointer (`#/properties/a`) is prefixed with where the schema now lives;
 * - references to other documents are left alone.
 * `$id` is dropped from the schema's root, since a nested `$id` would change what its
 * references resolve against. `schema` is not changed; the result is a fresh object.
 */
export function wrapResponseSchema(schema: JsonObject): JsonObject {
  const { $defs, definitions, $id: _id, $schema: _dialect, ...rest } = structuredClone(schema);
  const body: JsonObject = rest;
  const hoisted: JsonObject = {};
  if (isJsonObject($defs)) hoisted['$defs'] = $defs;
  if (isJsonObject(definitions)) hoisted['definitions'] = definitions;
  if (!refersTo(body, '#') && !refersTo(hoisted, '#')) {
    rewriteRefs(body, RESPONSE_POINTER);
    rewriteRefs(hoisted, RESPONSE_POINTER);
    return wrapper(body, hoisted);
  }
  // fromJSONSchema (and some providers) read only one of the two keywords: reuse the one in use.
  const keyword =
    hoisted['$defs'] === undefined && hoisted['definitions'] !== undefined
      ? 'definitions'
      : '$defs';
  const defs = (hoisted[keyword] ?? {}) as JsonObject;
  const name = uniqueName('Response', defs);
  const base = `#/${keyword}/${name}`;
  defs[name] = body;
  hoisted[keyword] = defs;
  rewriteRefs(hoisted, base);
  return wrapper({ $ref: base }, hoisted);
}

function wrapper(response: JsonObject, hoisted: JsonObject): JsonObject {
  return { type: 'object', properties: { response }, required: ['response'], ...hoisted };
}

function rewriteRefs(node: JsonValue, base: string): void {
  if (Array.isArray(node)) {
    for (const item of node) rewriteRefs(item, base);
    return;
  }
  if (!isJsonObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string') node[key] = rebase(value, base);
    else if (!DATA_KEYWORDS.has(key)) rewriteRefs(value, base);
  }
}

function rebase(ref: string, base: string): string {
  if (ref === '#') return base;
  if (ref.startsWith('#/$defs/') || ref.startsWith('#/definitions/')) return ref;
  if (ref.startsWith('#/')) return `${base}${ref.slice(1)}`;
  return ref;
}

function refersTo(node: JsonValue, target: string): boolean {
  if (Array.isArray(node)) return node.some((item) => refersTo(item, target));
  if (!isJsonObject(node)) return false;
  return Object.entries(node).some(([key, value]) =>
    key === '$ref' ? value === target : !DATA_KEYWORDS.has(key) && refersTo(value, target),
  );
}

function uniqueName(base: string, taken: JsonObject): string {
  let name = base;
  for (let i = 2; name in taken; i++) name = `${base}${i}`;
  return name;
}
