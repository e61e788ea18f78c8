import type { ThinkingSigner } from './thinkingSigner.js';

type Json = Record<string, unknown>;

class Rejection extends Error {}

function reject(path: string, problem: string): never {
  throw new Rejection(`${path}: ${problem}`);
}

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/u;
const TOOL_ID = /^[a-zA-Z0-9_-]+$/u;
const USER_BLOCKS = new Set(['text', 'image', 'document', 'tool_result', 'search_result']);
const ASSISTANT_BLOCKS = new Set(['text', 'thinking', 'redacted_thinking', 'tool_use']);

/**
 * The problem the Messages API would answer `body` with a 400 for, or `undefined` when it
 * would accept it: a missing `model` or `max_tokens`, turns that do not alternate user /
 * assistant (starting with user), empty text, a `tool_use` without its `tool_result` in the
 * very next user turn (results first there), a result answering no call, a thinking block
 * whose `signature` does not match its text or redacted data `signer` never issued, forced
 * tool use with thinking enabled, a thinking budget under 1024 or not below `max_tokens`, a
 * thinking-enabled tool loop whose last assistant turn does not start with thinking, bad
 * tools or `tool_choice`, a final assistant turn (prefill) while thinking, and more than 4
 * `cache_control` breakpoints.
 */
export function validateMessagesRequest(body: unknown, signer: ThinkingSigner): string | undefined {
  try {
    check(body, signer);
    return undefined;
  } catch (error) {
    if (error instanceof Rejection) return error.message;
    throw error;
  }
}

function check(body: unknown, signer: ThinkingSigner): void {
  if (!isObject(body)) reject('body', 'expected a JSON object');
  if (typeof body['model'] !== 'string' || body['model'] === '') reject('model', 'Field required');
  const maxTokens = body['max_tokens'];
  if (maxTokens === undefined) reject('max_tokens', 'Field required');
  if (!Number.isInteger(maxTokens) || (maxTokens as number) < 1) {
    reject('max_tokens', 'must be a positive integer');
  }
  const breakpoints = { count: 0 };
  checkSystem(body['system'], breakpoints);
  const toolNames = checkTools(body['tools'], breakpoints);
  const thinking = checkThinking(body['thinking'], maxTokens as number);
  checkToolChoice(body['tool_choice'], toolNames, thinking);
  const messages = body['messages'];
  if (!Array.isArray(messages) || messages.length === 0) {
    reject('messages', 'at least one message is required');
  }
  let pending: Set<string> | undefined;
  messages.forEach((message: unknown, index) => {
    const path = `messages.${index}`;
    if (!isObject(message)) reject(path, 'expected a message object');
    const role = message['role'];
    if (role !== 'user' && role !== 'assistant') {
      reject(`${path}.role`, `Input should be 'user' or 'assistant'`);
    }
    const expected = index % 2 === 0 ? 'user' : 'assistant';
    if (role !== expected) {
      reject(
        path,
        `roles must alternate between "user" and "assistant", starting with "user"; found "${role}"`,
      );
    }
    const blocks = contentBlocks(
      message['content'],
      path,
      role === 'user' ? USER_BLOCKS : ASSISTANT_BLOCKS,
    );
    if (role === 'user') {
      checkResults(blocks, pending, path);
      pending = undefined;
    } else {
      pending = checkAssistant(blocks, path, signer);
    }
    for (const block of blocks) if (block['cache_control'] !== undefined) breakpoints.count++;
  });
  if (pending !== undefined && pending.size > 0) {
    // The last turn is an assistant turn that calls tools: a prefill cannot call tools.
    reject(
      `messages.${messages.length - 1}`,
      `tool_use ids were found without tool_result blocks immediately after: ${[...pending].join(', ')}`,
    );
  }
  if (thinking && messages.length % 2 === 0) {
    reject(
      `messages.${messages.length - 1}`,
      'a final assistant message (prefill) is not supported when thinking is enabled',
    );
  }
  if (thinking) checkThinkingLoop(messages as Json[]);
  if (breakpoints.count > 4)
    reject('body', 'A maximum of 4 blocks with cache_control may be provided');
}

function checkSystem(system: unknown, breakpoints: { count: number }): void {
  if (system === undefined || typeof system === 'string') return;
  if (!Array.isArray(system)) reject('system', 'expected a string or an array of text blocks');
  system.forEach((block: unknown, index) => {
    if (
      !isObject(block) ||
      block['type'] !== 'text' ||
      typeof block['text'] !== 'string' ||
      block['text'] === ''
    ) {
      reject(`system.${index}`, 'expected a non-empty text block');
    }
    if (block['cache_control'] !== undefined) breakpoints.count++;
  });
}

function checkTools(tools: unknown, breakpoints: { count: number }): Set<string> {
  const names = new Set<string>();
  if (tools === undefined) return names;
  if (!Array.isArray(tools)) reject('tools', 'expected an array');
  tools.forEach((tool: unknown, index) => {
    const path = `tools.${index}`;
    if (!isObject(tool)) reject(path, 'expected a tool object');
    const name = tool['name'];
    if (typeof name !== 'string' || !TOOL_NAME.test(name))
      reject(`${path}.name`, `String should match pattern '${TOOL_NAME.source}'`);
    if (names.has(name)) reject(`${path}.name`, `Tool names must be unique; "${name}" repeats`);
    names.add(name);
    const schema = tool['input_schema'];
    if (!isObject(schema) || schema['type'] !== 'object')
      reject(`${path}.input_schema.type`, "Input should be 'object'");
    if (tool['cache_control'] !== undefined) breakpoints.count++;
  });
  return names;
}

function checkThinking(thinking: unknown, maxTokens: number): boolean {
  if (thinking === undefined) return false;
  if (!isObject(thinking)) reject('thinking', 'expected an object');
  if (thinking['type'] === 'disabled') return false;
  if (thinking['type'] !== 'enabled') return true;
  const budget = thinking['budget_tokens'];
  if (!Number.isInteger(budget) || (budget as number) < 1024) {
    reject('thinking.enabled.budget_tokens', 'Input should be greater than or equal to 1024');
  }
  if ((budget as number) >= maxTokens)
    reject('max_tokens', 'must be greater than thinking.budget_tokens');
  return true;
}

function checkToolChoice(choice: unknown, tools: Set<string>, thinking: boolean): void {
  if (choice === undefined) return;
  if (!isObject(choice)) reject('tool_choice', 'expected an object');
  const type = choice['type'];
  if (!['auto', 'any', 'tool', 'none'].includes(type as string)) {
    reject('tool_choice.type', "Input should be 'auto', 'any', 'tool' or 'none'");
  }
  if (tools.size === 0 && type !== 'none')
    reject('tool_choice', 'tool_choice may only be specified while providing tools');
  if (type === 'tool' && !tools.has(choice['name'] as string)) {
    reject('tool_choice.name', `no tool named ${JSON.stringify(choice['name'])} in tools`);
  }
  if (thinking && (type === 'any' || type === 'tool')) {
    reject('tool_choice', 'Thinking may not be enabled when tool_choice forces tool use.');
  }
}

function contentBlocks(content: unknown, path: string, allowed: Set<string>): Json[] {
  if (typeof content === 'string') {
    if (content === '') reject(`${path}.content`, 'text content blocks must be non-empty');
    return [{ type: 'text', text: content }];
  }
  if (!Array.isArray(content) || content.length === 0)
    reject(`${path}.content`, 'expected a non-empty string or array of blocks');
  return content.map((block: unknown, index) => {
    const at = `${path}.content.${index}`;
    if (!isObject(block) || typeof block['type'] !== 'string')
      reject(at, 'expected a typed content block');
    if (!allowed.has(block['type']))
      reject(`${at}.type`, `a block of type "${block['type']}" is not allowed here`);
    if (block['type'] === 'text' && (typeof block['text'] !== 'string' || block['text'] === '')) {
      reject(at, 'text content blocks must be non-empty');
    }
    return block;
  });
}

function checkAssistant(blocks: Json[], path: string, signer: ThinkingSigner): Set<string> {
  const calls = new Set<string>();
  blocks.forEach((block, index) => {
    const at = `${path}.content.${index}`;
    if (block['type'] === 'thinking') {
      if (
        typeof block['thinking'] !== 'string' ||
        !signer.verify(block['thinking'], block['signature'])
      ) {
        reject(at, 'Invalid `signature` in `thinking` block');
      }
    } else if (block['type'] === 'redacted_thinking') {
      if (!signer.issued(block['data'])) reject(at, 'Invalid `data` in `redacted_thinking` block');
    } else if (block['type'] === 'tool_use') {
      const id = block['id'];
      if (typeof id !== 'string' || !TOOL_ID.test(id))
        reject(`${at}.id`, `String should match pattern '${TOOL_ID.source}'`);
      if (typeof block['name'] !== 'string' || block['name'] === '')
        reject(`${at}.name`, 'Field required');
      if (!isObject(block['input'])) reject(`${at}.input`, 'Input should be a valid dictionary');
      if (calls.has(id)) reject(`${at}.id`, `tool_use ids must be unique; "${id}" repeats`);
      calls.add(id);
    }
  });
  return calls;
}

function checkResults(blocks: Json[], pending: Set<string> | undefined, path: string): void {
  const answered = new Set<string>();
  let others = false;
  blocks.forEach((block, index) => {
    const at = `${path}.content.${index}`;
    if (block['type'] !== 'tool_result') {
      others = true;
      return;
    }
    if (others)
      reject(
        at,
        'tool_result blocks must come first in the user message, before any other content',
      );
    const id = block['tool_use_id'];
    if (typeof id !== 'string' || pending === undefined || !pending.has(id)) {
      reject(
        at,
        `unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
      );
    }
    if (answered.has(id)) reject(at, `tool_use id ${id} is answered twice`);
    answered.add(id);
  });
  const missing = [...(pending ?? [])].filter((id) => !answered.has(id));
  if (missing.length > 0) {
    reject(
      path,
      `\`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
    );
  }
}

/** With thinking on, the assistant turn whose tool results end the conversation starts with thinking. */
function checkThinkingLoop(messages: Json[]): void {
  const last = messages.at(-1);
  const previous = messages.at(-2);
  if (last === undefined || previous === undefined || !Array.isArray(last['content'])) return;
  if (!(last['content'] as Json[]).some((block) => block['type'] === 'tool_result')) return;
  const first = Array.isArray(previous['content']) ? (previous['content'] as Json[])[0] : undefined;
  if (first?.['type'] !== 'thinking' && first?.['type'] !== 'redacted_thinking') {
    reject(
      `messages.${messages.length - 2}.content.0.type`,
      'Expected `thinking` or `redacted_thinking`, but found `' +
        String(first?.['type'] ?? 'text') +
        '`. When `thinking` is enabled, a final `assistant` message must start with a thinking block.',
    );
  }
}
