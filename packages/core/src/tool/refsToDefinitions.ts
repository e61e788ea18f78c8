import type { JsonObject, JsonValue } from '../json.js';
import { isJsonObject } from '../json.js';

/** Keywords whose values are instance data, not subschemas: a `$ref` inside them is not a reference. */
const DATA_KEYWORDS = new Set(['default', 'const', 'enum', 'examples', 'example']);

const ROOT_DEFINITION = 'Root';

/**
 * Rewrites every `$ref` of `schema` to point at `#/definitions/<name>`: a subschema referenced
 * by path (`#/properties/tree`, as zod-to-json-schema writes it) moves into `definitions` and
 * its old place becomes a `$ref`; a reference to the root (`#`) points at a copy of the root
 * kept in `definitions`. Refs then survive when another schema embeds this one (structured
 * output wraps it as `{ response: <schema> }` and hoists `definitions`). Mutates and returns
 * `schema`, which must be a fresh copy owned by the caller.
 */
export function refsToDefinitions(schema: JsonObject): JsonObject {
  const refs = collectRefs(schema);
  if (refs.size === 0) return schema;
  const existing = isJsonObject(schema['definitions']) ? schema['definitions'] : {};
  const taken = new Set(Object.keys(existing));
  const renamed = new Map<string, string>();
  const targets = new Map<JsonObject, string>();
  for (const ref of refs) {
    if (ref === '#' || !ref.startsWith('#/') || isDefinitionRef(ref)) continue;
    const node = resolvePointer(schema, ref);
    if (node === undefined || node === schema) continue;
    const name = targets.get(node) ?? uniqueName(lastSegment(ref), taken);
    targets.set(node, name);
    renamed.set(ref, `#/definitions/${name}`);
  }
  const rootRef = refs.has('#') ? `#/definitions/${uniqueName(ROOT_DEFINITION, taken)}` : undefined;
  if (rootRef !== undefined) renamed.set('#', rootRef);
  const moved: JsonObject = {};
  rewrite(schema, { targets, renamed, moved, visited: new Set() });
  const definitions: JsonObject = { ...existing, ...moved };
  if (rootRef !== undefined) {
    const { definitions: _own, ...rootCopy } = schema;
    definitions[rootRef.slice('#/definitions/'.length)] = structuredClone(rootCopy);
  }
  schema['definitions'] = definitions;
  return schema;
}

interface RewriteState {
  readonly targets: ReadonlyMap<JsonObject, string>;
  readonly renamed: ReadonlyMap<string, string>;
  readonly moved: JsonObject;
  readonly visited: Set<JsonObject>;
}

function rewrite(node: JsonObject | JsonValue[], state: RewriteState): void {
  if (!Array.isArray(node)) {
    if (state.visited.has(node)) return;
    state.visited.add(node);
    const ref = node['$ref'];
    if (typeof ref === 'string') node['$ref'] = state.renamed.get(ref) ?? ref;
  }
  const entries: Array<[string | number, JsonValue]> = Array.isArray(node)
    ? node.map((value, index) => [index, value])
    : Object.entries(node).filter(([key]) => !DATA_KEYWORDS.has(key));
  for (const [key, value] of entries) {
    if (typeof value !== 'object' || value === null) continue;
    const name = isJsonObject(value) ? state.targets.get(value) : undefined;
    if (name !== undefined) {
      state.moved[name] = value;
      (node as Record<string | number, JsonValue>)[key] = { $ref: `#/definitions/${name}` };
    }
    rewrite(value, state);
  }
}

function collectRefs(node: JsonValue, refs = new Set<string>()): Set<string> {
  if (Array.isArray(node)) {
    for (const item of node) collectRefs(item, refs);
  } else if (isJsonObject(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') refs.add(value);
      else if (!DATA_KEYWORDS.has(key)) collectRefs(value, refs);
    }
  }
  return refs;
}

function isDefinitionRef(ref: string): boolean {
  return /^#\/definitions\/[^/]+$/.test(ref);
}

function pointerSegments(ref: string): string[] {
  return ref
    .slice(2)
    .split('/')
    .map((segment) => decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~'));
}

function resolvePointer(root: JsonObject, ref: string): JsonObject | undefined {
  let node: JsonValue | undefined = root;
  for (const segment of pointerSegments(ref)) {
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (isJsonObject(node)) node = node[segment];
    else return undefined;
  }
  return isJsonObject(node) ? node : undefined;
}

function lastSegment(ref: string): string {
  const segments = pointerSegments(ref).filter((s) => !/^\d+$/.test(s));
  const name = (segments.at(-1) ?? 'schema').replace(/[^a-zA-Z0-9_.-]/g, '_');
  return name.length > 0 ? name : 'schema';
}

function uniqueName(base: string, taken: Set<string>): string {
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}${i}`;
  taken.add(name);
  return name;
}
