/** A request problem; the message is `<where>: <what>`. Internal to the validator. */
export class RequestProblem extends Error {}

/** Stops validation with a problem at `path`. */
export function reject(path: string, problem: string): never {
  throw new RequestProblem(`${path}: ${problem}`);
}

/** Names a JSON value's type for a problem message. */
export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Whether `value` is a non-null, non-array object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const ROLES = ['system', 'developer', 'user', 'assistant', 'tool', 'function'];
// OpenAI's pattern for a message's `name`.
const MESSAGE_NAME = /^[^\s<|\\/>]+$/;
const USER_PARTS = ['text', 'image_url', 'input_audio', 'file'];

/**
 * Checks `messages` the way the Chat Completions API does: each message's shape, and the
 * pairing of tool calls with tool results (see `ToolCallPairing`). Throws a `RequestProblem`.
 */
export function validateMessages(messages: unknown): void {
  if (messages === undefined) reject('messages', "missing required parameter 'messages'");
  if (!Array.isArray(messages)) reject('messages', `expected an array, got ${typeName(messages)}`);
  if (messages.length === 0) reject('messages', 'empty array; at least one message is required');
  const pairing = new ToolCallPairing();
  messages.forEach((message: unknown, index) => {
    const path = `messages[${index}]`;
    if (!isRecord(message)) reject(path, `expected a message object, got ${typeName(message)}`);
    checkMessage(message, path);
    pairing.visit(message, index);
  });
  pairing.end();
}

function checkMessage(message: Record<string, unknown>, path: string): void {
  const { role, name, content } = message;
  if (typeof role !== 'string' || !ROLES.includes(role)) {
    reject(
      `${path}.role`,
      `unknown role ${JSON.stringify(role)}; expected one of ${ROLES.join(', ')}`,
    );
  }
  if (name !== undefined && (typeof name !== 'string' || !MESSAGE_NAME.test(name))) {
    reject(
      `${path}.name`,
      `${JSON.stringify(name)} does not match ${MESSAGE_NAME.source} (no spaces or <|\\/>)`,
    );
  }
  if (role === 'assistant') {
    checkAssistant(message, path);
    return;
  }
  if (
    role === 'tool' &&
    (typeof message.tool_call_id !== 'string' || message.tool_call_id === '')
  ) {
    reject(`${path}.tool_call_id`, 'a tool message needs the tool_call_id of the call it answers');
  }
  if (role === 'function') {
    if (typeof name !== 'string') reject(`${path}.name`, 'a function message needs a name');
    if (content === null) return;
  }
  checkContent(content, `${path}.content`, role === 'user' ? USER_PARTS : ['text']);
}

function checkAssistant(message: Record<string, unknown>, path: string): void {
  const { content, tool_calls } = message;
  if (content !== undefined && content !== null)
    checkContent(content, `${path}.content`, ['text', 'refusal']);
  if (tool_calls !== undefined && tool_calls !== null) {
    if (!Array.isArray(tool_calls))
      reject(`${path}.tool_calls`, `expected an array, got ${typeName(tool_calls)}`);
    if (tool_calls.length === 0)
      reject(`${path}.tool_calls`, 'empty array; omit tool_calls when there are none');
    for (const [index, call] of (tool_calls as unknown[]).entries()) {
      checkToolCall(call, `${path}.tool_calls[${index}]`);
    }
  } else if ((content === undefined || content === null) && message.function_call === undefined) {
    reject(path, 'assistant message has neither content nor tool_calls');
  }
}

function checkToolCall(call: unknown, path: string): void {
  if (!isRecord(call)) reject(path, `expected a tool call object, got ${typeName(call)}`);
  if (typeof call.id !== 'string' || call.id === '') reject(`${path}.id`, 'missing tool call id');
  if (call.type !== 'function')
    reject(`${path}.type`, `expected 'function', got ${JSON.stringify(call.type)}`);
  const fn = call.function;
  if (!isRecord(fn)) reject(`${path}.function`, `expected an object, got ${typeName(fn)}`);
  if (typeof fn.name !== 'string' || fn.name === '')
    reject(`${path}.function.name`, 'missing function name');
  if (typeof fn.arguments !== 'string') {
    reject(`${path}.function.arguments`, `expected a JSON string, got ${typeName(fn.arguments)}`);
  }
  try {
    JSON.parse(fn.arguments);
  } catch (error) {
    const snippet = fn.arguments.length > 80 ? `${fn.arguments.slice(0, 80)}…` : fn.arguments;
    reject(
      `${path}.function.arguments`,
      `not valid JSON (${(error as Error).message}): ${JSON.stringify(snippet)}`,
    );
  }
}

function checkContent(content: unknown, path: string, partTypes: readonly string[]): void {
  if (typeof content === 'string') return;
  if (content === undefined || content === null) reject(path, 'missing content');
  if (!Array.isArray(content))
    reject(path, `expected a string or an array of parts, got ${typeName(content)}`);
  if (content.length === 0) reject(path, 'empty array of content parts');
  content.forEach((part: unknown, index) => {
    const partPath = `${path}[${index}]`;
    if (!isRecord(part) || typeof part.type !== 'string' || !partTypes.includes(part.type)) {
      reject(partPath, `expected a content part of type ${partTypes.join(' | ')}`);
    }
    if (part.type === 'text' && typeof part.text !== 'string')
      reject(`${partPath}.text`, 'missing text');
    if (
      part.type === 'image_url' &&
      !(isRecord(part.image_url) && typeof part.image_url.url === 'string')
    ) {
      reject(`${partPath}.image_url.url`, 'missing image url');
    }
  });
}

/**
 * Tool results must come right after the assistant message that made the calls, answer only
 * its ids, once each, and answer all of them before the next non-tool message; tool call ids
 * are unique across the conversation.
 */
class ToolCallPairing {
  readonly #firstUse = new Map<string, string>();
  #open: { index: number; ids: string[]; answered: Set<string> } | undefined;

  visit(message: Record<string, unknown>, index: number): void {
    if (message.role === 'tool') {
      this.#answer(message.tool_call_id as string, index);
      return;
    }
    this.#closeRun(index);
    if (message.role !== 'assistant' || !Array.isArray(message.tool_calls)) return;
    const ids = (message.tool_calls as Array<{ id: string }>).map((call, position) => {
      const path = `messages[${index}].tool_calls[${position}]`;
      const first = this.#firstUse.get(call.id);
      if (first)
        reject(`${path}.id`, `duplicate tool_call id ${call.id} (already used at ${first})`);
      this.#firstUse.set(call.id, path);
      return call.id;
    });
    this.#open = { index, ids, answered: new Set() };
  }

  end(): void {
    this.#closeRun(undefined);
  }

  #answer(id: string, index: number): void {
    const path = `messages[${index}]`;
    const open = this.#open;
    if (!open) {
      reject(
        path,
        `tool message (tool_call_id ${id}) does not follow an assistant message with tool_calls; a tool result must come right after the assistant message that made the call`,
      );
    }
    if (!open.ids.includes(id)) {
      reject(
        path,
        `tool_call_id ${id} answers no tool call of the assistant message at messages[${open.index}] (its calls: [${open.ids.join(', ')}])`,
      );
    }
    if (open.answered.has(id)) reject(path, `second tool result for tool_call_id ${id}`);
    open.answered.add(id);
  }

  #closeRun(nextIndex: number | undefined): void {
    const open = this.#open;
    this.#open = undefined;
    if (!open) return;
    const missing = open.ids.filter((id) => !open.answered.has(id));
    if (missing.length === 0) return;
    const before = nextIndex === undefined ? 'the end of the messages' : `messages[${nextIndex}]`;
    reject(
      `messages[${open.index}]`,
      `assistant tool_calls [${missing.join(', ')}] have no tool results (each call needs a tool message with its tool_call_id before ${before})`,
    );
  }
}
