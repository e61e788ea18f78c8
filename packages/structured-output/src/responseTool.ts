import {
  InvalidArgumentError,
  isJsonObject,
  type StructuredOutputSchema,
  type Tool,
  type ToolParameters,
  toJsonSchema,
  tool,
} from '@rxagent/core';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import { wrapResponseSchema } from './wrapResponseSchema.js';

/** The name of the per-call tool through which the model gives its structured answer. */
export const GENERATE_RESPONSE = 'generate_response';

const DESCRIPTION =
  'Call this function when you have all the information for the final answer: put the complete ' +
  'answer in "response", following its schema exactly. This is the only way to give your final ' +
  'answer; do not reply in plain text. If the call is rejected, fix the fields it names and call it again.';

/** Wrapper parameters per schema object: a schema reused across calls is converted once. */
const wrappers = new WeakMap<object, ToolParameters>();

/**
 * The parameters of `generate_response` for `schema`: `{ response: <schema> }` as an object
 * schema. A zod schema is wrapped in a zod object of its own version (`z.object` for zod v4,
 * `zod/v3`'s for v3), so validation is the user's schema itself (refinements, transforms and
 * defaults included) and zod's converter hoists its definitions; a plain JSON Schema is wrapped
 * by `wrapResponseSchema`. Throws `InvalidArgumentError` when `schema` is not a schema object.
 */
export function responseParameters(schema: StructuredOutputSchema): ToolParameters {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new InvalidArgumentError(
      `structuredOutput must be a zod schema (zod v4, or zod/v3) or a JSON Schema object, got ${describe(schema)}.`,
    );
  }
  let parameters = wrappers.get(schema);
  if (parameters === undefined) {
    parameters = wrap(schema);
    wrappers.set(schema, parameters);
  }
  return parameters;
}

/**
 * The `generate_response` tool of one call. The toolkit validates its arguments against
 * `parameters` before it runs, so `execute` only sees a valid response (parsed, defaults
 * applied) and hands it to `accept` with the call's id. Never deduplicated: a repeated
 * identical call must run again. Throws `InvalidArgumentError` for a schema with no JSON
 * Schema form or no validator (`z.date()`, `not` in a plain JSON Schema).
 */
export function responseTool(
  parameters: ToolParameters,
  accept: (toolCallId: string, response: unknown) => void,
): Tool<{ response: unknown }> {
  return tool({
    name: GENERATE_RESPONSE,
    description: DESCRIPTION,
    parameters,
    dedupe: false,
    // It only records the response: running it again after a crash is harmless.
    idempotent: true,
    execute: (args, { toolCallId }) => {
      accept(toolCallId, (args as { response: unknown }).response);
      return 'Response accepted.';
    },
  }) as Tool<{ response: unknown }>;
}

function wrap(schema: object): ToolParameters {
  if ('_zod' in schema) return z.object({ response: schema as z.ZodType });
  if ('_def' in schema && typeof (schema as { safeParse?: unknown }).safeParse === 'function') {
    return z3.object({ response: schema as z3.ZodTypeAny });
  }
  const json = toJsonSchema(schema);
  if (!isJsonObject(json))
    throw new InvalidArgumentError('structuredOutput: a JSON Schema must be a plain object.');
  return wrapResponseSchema(json);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}
