import { type ParsedToolArguments, parseToolArguments } from './parseToolArguments.js';
import { formatIssues, validateAgainst } from './schema.js';
import type { Tool, ToolCallRequest } from './tool.js';

/** Validated arguments for a run, or an error message for the model. */
export type ArgumentsOutcome =
  | { readonly ok: true; readonly args: unknown }
  | { readonly ok: false; readonly message: string };

/**
 * Turns a call's arguments into the value `execute` receives: `input` when given (hooks may
 * have changed it), else `rawArguments` parsed by `parseToolArguments` (bounded in size and depth; empty text
 * means `{}`), then validated against the tool's schema.
 */
export function resolveArguments(tool: Tool<never>, call: ToolCallRequest): ArgumentsOutcome {
  const parsed =
    call.input !== undefined ? { ok: true as const, value: call.input } : parseRaw(call);
  if (!parsed.ok) return parsed;
  const value = parsed.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      ok: false,
      message: `Tool "${tool.name}" got arguments of type ${describeType(value)}; send a JSON object with the tool's parameters.`,
    };
  }
  let result: ReturnType<typeof validateAgainst>;
  try {
    result = validateAgainst(tool.parameters, value);
  } catch (error) {
    return {
      ok: false,
      message: `Tool "${tool.name}" cannot validate its arguments: ${messageOf(error)}`,
    };
  }
  if (result.ok) return { ok: true, args: result.value };
  return {
    ok: false,
    message: `Tool "${tool.name}" got invalid arguments:\n${formatIssues(result.issues)}\nFix these fields and call the tool again.`,
  };
}

function parseRaw(call: ToolCallRequest): ParsedToolArguments {
  return parseToolArguments(call.name, call.rawArguments ?? '');
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
