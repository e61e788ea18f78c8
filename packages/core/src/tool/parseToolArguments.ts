/**
 * The deepest nesting of objects and arrays accepted in a tool call's arguments. Deeper
 * arguments are refused before parsing: code that walks them recursively (formatting,
 * dedupe keys, schema validation, state dicts) would overflow the stack.
 */
export const MAX_TOOL_ARGUMENT_DEPTH = 64;

/** The longest tool-call argument text accepted, in characters (256 KiB). */
export const MAX_TOOL_ARGUMENT_CHARS = 256 * 1024;

/** Parsed tool-call arguments, or a model-facing message saying why they were refused. */
export type ParsedToolArguments =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly message: string };

/**
 * Parses the argument text of tool call `toolName` as a model server sent it. Empty text
 * means `{}` (some servers send it for tools without parameters). Text longer than
 * {@link MAX_TOOL_ARGUMENT_CHARS} or nested deeper than {@link MAX_TOOL_ARGUMENT_DEPTH} is
 * refused before `JSON.parse` runs, as is text that is not JSON; the message tells the model
 * what to send instead. Linear in the text's length; never throws.
 */
export function parseToolArguments(toolName: string, raw: string): ParsedToolArguments {
  if (raw.length > MAX_TOOL_ARGUMENT_CHARS) {
    return {
      ok: false,
      message: `Tool "${toolName}" got arguments of ${raw.length} characters, more than the limit of ${MAX_TOOL_ARGUMENT_CHARS} characters; send shorter arguments.`,
    };
  }
  if (raw.trim() === '') return { ok: true, value: {} };
  if (nestingDepth(raw) > MAX_TOOL_ARGUMENT_DEPTH) {
    return {
      ok: false,
      message: `Tool "${toolName}" got arguments nested deeper than ${MAX_TOOL_ARGUMENT_DEPTH} levels; send flatter arguments.`,
    };
  }
  try {
    return { ok: true, value: JSON.parse(raw) as unknown };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      message: `Tool "${toolName}" got arguments that are not valid JSON (${reason}); send the arguments as one JSON object.`,
    };
  }
}

/**
 * The deepest bracket nesting of JSON-like text, brackets inside strings ignored. Stops
 * counting once past the limit: only "too deep or not" matters.
 */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c) i++;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > MAX_TOOL_ARGUMENT_DEPTH) return deepest;
      }
    } else if (code === 0x7d || code === 0x5d) depth--;
  }
  return deepest;
}
