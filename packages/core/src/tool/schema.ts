import { fromJSONSchema, toJSONSchema, type ZodType } from 'zod';
import type { ZodTypeAny } from 'zod/v3';
import { zodToJsonSchema } from 'zod-to-json-schema';
import { InvalidArgumentError } from '../errors.js';
import { isJsonObject, type JsonObject } from '../json.js';
import { refsToDefinitions } from './refsToDefinitions.js';

/** A zod v3 or v4 schema (anything with `safeParse`), or a plain JSON Schema object. */
export type ToolParameters = object;

/** The argument type a zod v3 or v4 schema parses to; `JsonObject` for a plain JSON Schema. */
export type InferToolArgs<S> = S extends { _zod: { output: infer O } }
  ? O
  : S extends { _output: infer O }
    ? O
    : JsonObject;

/** One reason a value does not match a schema: where (`items[0].name`, `(root)`) and what. */
export interface ValidationIssue {
  readonly path: string;
  readonly message: string;
}

/** The outcome of `validateAgainst`: the parsed value (defaults applied), or every issue found. */
export type ValidationResult<T = unknown> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly issues: readonly ValidationIssue[] };

interface SafeParser {
  safeParse(value: unknown):
    | { success: true; data: unknown }
    | {
        success: false;
        error: { issues: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }> };
      };
}

const compiled = new WeakMap<object, SafeParser>();

/**
 * Converts tool parameters to a JSON Schema object for a model request. zod v4 schemas use
 * zod's own converter (input side, so fields with defaults are optional; draft-07, so
 * shared and recursive parts live under `definitions` like zod v3's); zod v3 schemas
 * (`zod/v3`) use zod-to-json-schema; a plain JSON Schema is deep-copied as is. `$schema` is
 * removed, and every `$ref` of a zod schema points at `#/definitions/...` from the root.
 * Throws `InvalidArgumentError` for a schema with no JSON Schema equivalent (`z.date()` in v4).
 */
export function toJsonSchema(schema: ToolParameters): JsonObject {
  let json: JsonObject;
  try {
    json = convert(schema);
  } catch (error) {
    throw new InvalidArgumentError(
      `Cannot convert the schema to JSON Schema: ${messageOf(error)}. Use types JSON can express (no dates, bigints, functions or transforms without an input type).`,
      { cause: error },
    );
  }
  delete json['$schema'];
  return isZod(schema) ? refsToDefinitions(json) : json;
}

/**
 * Validates `value` against a zod v3/v4 schema or a plain JSON Schema. Returns the parsed
 * value (defaults applied) or every issue with its path. A plain JSON Schema is compiled once
 * (cached per schema object) with zod's `fromJSONSchema`; throws `InvalidArgumentError` if it
 * uses a keyword that cannot be validated (`if`/`then`/`else`, `not`, external `$ref`).
 */
export function validateAgainst<S extends ToolParameters>(
  schema: S,
  value: unknown,
): ValidationResult<InferToolArgs<S>> {
  const parser = isZod(schema) ? (schema as unknown as SafeParser) : compileJsonSchema(schema);
  let result: ReturnType<SafeParser['safeParse']>;
  try {
    result = parser.safeParse(value);
  } catch (error) {
    return {
      ok: false,
      issues: [{ path: '(root)', message: `validation failed: ${messageOf(error)}` }],
    };
  }
  if (result.success) return { ok: true, value: result.data as InferToolArgs<S> };
  const issues = result.error.issues.map((issue) => ({
    path: formatPath(issue.path),
    message: issue.message,
  }));
  return { ok: false, issues };
}

/**
 * Compiles (and caches) the validator of a plain JSON Schema, so `tool()` reports an
 * unsupported schema when the tool is defined rather than on its first call. No-op for zod.
 */
export function ensureValidator(schema: ToolParameters): void {
  if (!isZod(schema)) compileJsonSchema(schema);
}

/** Formats issues one per line as `path: message`, for an error the model reads. */
export function formatIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((issue) => `${issue.path}: ${issue.message}`).join('\n');
}

function convert(schema: ToolParameters): JsonObject {
  if (isZod4(schema)) {
    return toJSONSchema(schema, { io: 'input', target: 'draft-07' }) as JsonObject;
  }
  if (isZod(schema)) {
    return zodToJsonSchema(schema as ZodTypeAny, {
      $refStrategy: 'root',
      target: 'jsonSchema7',
      pipeStrategy: 'input',
    }) as JsonObject;
  }
  return JSON.parse(JSON.stringify(schema)) as JsonObject;
}

function compileJsonSchema(schema: object): SafeParser {
  const cached = compiled.get(schema);
  if (cached !== undefined) return cached;
  if (!isJsonObject(schema)) {
    throw new InvalidArgumentError('A JSON Schema must be a plain object.');
  }
  // fromJSONSchema resolves `#/definitions/...` only for draft-07 and `#/$defs/...` otherwise.
  const usesDefinitions = schema['$defs'] === undefined && schema['definitions'] !== undefined;
  let parser: ZodType;
  try {
    parser = fromJSONSchema(schema, {
      defaultTarget: usesDefinitions ? 'draft-7' : 'draft-2020-12',
    });
  } catch (error) {
    throw new InvalidArgumentError(
      `This JSON Schema cannot be used to validate arguments: ${messageOf(error)}. Rewrite it without that keyword, or pass a zod schema.`,
      { cause: error },
    );
  }
  compiled.set(schema, parser);
  return parser;
}

function isZod4(schema: object): schema is Parameters<typeof toJSONSchema>[0] {
  return '_zod' in schema;
}

function isZod(schema: object): boolean {
  return (
    '_zod' in schema ||
    ('_def' in schema && typeof (schema as Partial<SafeParser>).safeParse === 'function')
  );
}

function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key))
      out += out === '' ? key : `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out === '' ? '(root)' : out;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
