import {
  isRecord,
  RequestProblem,
  reject,
  typeName,
  validateMessages,
} from './validateMessages.js';

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Checks a Chat Completions request body the way the real OpenAI API does, and returns why
 * it would be answered 400 (`"<where>: <what>"`, e.g. `"messages[3]: assistant tool_calls
 * [call_1] have no tool results ..."`), or `undefined` when it would be accepted.
 *
 * Checked: `model`; `messages` (present, non-empty, known roles, content shapes, `name`
 * pattern, tool results directly after the assistant message that made the calls and
 * answering all of them, valid JSON arguments, unique tool call ids); `tools` (function
 * name pattern); `tool_choice` and `parallel_tool_calls` (only with tools; a named function
 * must be in `tools`); `stream_options` (only when streaming); sampling ranges.
 */
export function validateChatRequest(body: unknown): string | undefined {
  try {
    checkRequest(body);
    return undefined;
  } catch (error) {
    if (error instanceof RequestProblem) return error.message;
    throw error;
  }
}

function checkRequest(body: unknown): void {
  if (!isRecord(body)) reject('body', `expected a JSON object, got ${typeName(body)}`);
  if (typeof body.model !== 'string' || body.model === '') {
    reject('model', "missing required parameter 'model' (the model name)");
  }
  validateMessages(body.messages);
  const toolNames = checkTools(body);
  checkToolChoice(body.tool_choice, toolNames);
  checkStreaming(body);
  checkSampling(body);
}

/** Returns the names of the request's tools (empty when it has none). */
function checkTools(body: Record<string, unknown>): string[] {
  const { tools } = body;
  const hasTools = Array.isArray(tools) && tools.length > 0;
  for (const key of ['tool_choice', 'parallel_tool_calls']) {
    if (body[key] !== undefined && !hasTools) {
      const why = Array.isArray(tools) ? 'tools is an empty array' : 'there are no tools';
      reject(key, `'${key}' is only allowed when 'tools' are specified (${why})`);
    }
  }
  if (body.parallel_tool_calls !== undefined && typeof body.parallel_tool_calls !== 'boolean') {
    reject('parallel_tool_calls', `expected a boolean, got ${typeName(body.parallel_tool_calls)}`);
  }
  if (tools === undefined) return [];
  if (!Array.isArray(tools)) reject('tools', `expected an array, got ${typeName(tools)}`);
  if (tools.length === 0) reject('tools', 'empty array; omit tools when there are none');
  return tools.map((tool: unknown, index) => checkTool(tool, `tools[${index}]`));
}

function checkTool(tool: unknown, path: string): string {
  if (!isRecord(tool)) reject(path, `expected a tool object, got ${typeName(tool)}`);
  if (tool.type !== 'function')
    reject(`${path}.type`, `expected 'function', got ${JSON.stringify(tool.type)}`);
  const fn = tool.function;
  if (!isRecord(fn)) reject(`${path}.function`, `expected an object, got ${typeName(fn)}`);
  if (fn.name === undefined) reject(`${path}.function.name`, 'missing function name');
  if (typeof fn.name !== 'string' || !TOOL_NAME.test(fn.name)) {
    reject(
      `${path}.function.name`,
      `${JSON.stringify(fn.name)} does not match ${TOOL_NAME.source}`,
    );
  }
  if (fn.description !== undefined && typeof fn.description !== 'string') {
    reject(`${path}.function.description`, `expected a string, got ${typeName(fn.description)}`);
  }
  if (fn.parameters !== undefined && !isRecord(fn.parameters)) {
    reject(
      `${path}.function.parameters`,
      `expected a JSON Schema object, got ${typeName(fn.parameters)}`,
    );
  }
  return fn.name;
}

function checkToolChoice(choice: unknown, toolNames: readonly string[]): void {
  if (choice === undefined || choice === 'auto' || choice === 'none' || choice === 'required')
    return;
  const name =
    isRecord(choice) &&
    choice.type === 'function' &&
    isRecord(choice.function) &&
    choice.function.name;
  if (typeof name !== 'string') {
    reject(
      'tool_choice',
      `expected 'auto', 'none', 'required' or { type: 'function', function: { name } }, got ${JSON.stringify(choice)}`,
    );
  }
  if (!toolNames.includes(name)) {
    reject(
      'tool_choice',
      `function ${JSON.stringify(name)} is not in tools [${toolNames.join(', ')}]`,
    );
  }
}

function checkStreaming(body: Record<string, unknown>): void {
  const { stream, stream_options } = body;
  if (stream !== undefined && stream !== null && typeof stream !== 'boolean') {
    reject('stream', `expected a boolean, got ${typeName(stream)}`);
  }
  if (stream_options === undefined || stream_options === null) return;
  if (stream !== true) reject('stream_options', "only allowed when 'stream' is true");
  if (!isRecord(stream_options))
    reject('stream_options', `expected an object, got ${typeName(stream_options)}`);
}

function checkSampling(body: Record<string, unknown>): void {
  checkRange(body, 'temperature', 0, 2);
  checkRange(body, 'top_p', 0, 1);
  checkCacheKey(body);
  for (const key of ['max_tokens', 'max_completion_tokens']) {
    const value = body[key];
    if (
      value !== undefined &&
      value !== null &&
      !(Number.isInteger(value) && (value as number) >= 1)
    ) {
      reject(key, `expected a positive integer, got ${JSON.stringify(value)}`);
    }
  }
}

/** `prompt_cache_key`, when sent, is a string (the API rejects anything else). */
function checkCacheKey(body: Record<string, unknown>): void {
  const key = body['prompt_cache_key'];
  if (key !== undefined && key !== null && typeof key !== 'string')
    reject('prompt_cache_key', `expected a string, got ${typeName(key)}`);
}

function checkRange(body: Record<string, unknown>, key: string, min: number, max: number): void {
  const value = body[key];
  if (value === undefined || value === null) return;
  if (typeof value !== 'number' || value < min || value > max) {
    reject(key, `expected a number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
}
