import { StateError } from '../errors.js';
import { isJsonObject, type JsonObject } from '../json.js';
import { freezeMsg } from '../message/freezeMsg.js';
import type { Msg } from '../message/msg.js';
import type { Memory } from './memory.js';

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

/**
 * Up to this many messages, a repeated id is found by scanning them (as fast as a Set
 * lookup at that size), and no Set of ids is kept: a parked conversation holds one less
 * object per memory.
 */
const SCAN_IDS_UP_TO = 32;

/**
 * A `Memory` that keeps the conversation in an array. `messages()` returns a frozen array
 * that is cached until the next change, so reading memory every turn costs nothing and no
 * caller can reorder the stored conversation through it. Its state is
 * `{ version: 1, messages }`, deep-copied in and out.
 */
export class InMemoryMemory implements Memory {
  /**
   * The messages, oldest first. `messages()` freezes this array in place and hands it out
   * (one array, not a copy beside it); the next change copies it first.
   */
  #msgs: Msg[] = [];
  /** Whether `#msgs` is frozen: handed out by `messages()`, so a change works on a copy. */
  #frozen = false;
  /** The ids of the stored messages, kept once there are more than `SCAN_IDS_UP_TO`. */
  #ids: Set<string> | undefined;

  /** Creates a memory holding `msgs` (in order). */
  constructor(msgs: readonly Msg[] = []) {
    this.replace(msgs);
  }

  /**
   * Appends one message or several, in order. A message whose id is already stored is not
   * added again: a hub broadcast and a pipeline input may deliver the same Msg. Each stored
   * Msg is frozen deeply in place (a no-op for a factory-made one), so what memory holds
   * never changes behind it.
   */
  add(msgs: Msg | readonly Msg[]): void {
    if (!Array.isArray(msgs)) this.#addOne(msgs as Msg);
    else {
      // A loop, not push(...msgs): spreading a very long array overflows the call stack. By
      // index: `for…of` leaves V8's fast path on a frozen array (and allocates per item).
      const list = msgs as readonly Msg[];
      for (let i = 0; i < list.length; i++) this.#addOne(list[i]!);
    }
  }

  #addOne(msg: Msg): void {
    if (this.#has(msg.id)) return;
    freezeMsg(msg);
    if (this.#frozen) {
      // A copy of exactly the new length: the array messages() freezes next has no spare room.
      this.#msgs = this.#msgs.concat(msg);
      this.#frozen = false;
    } else this.#msgs.push(msg);
    if (this.#ids !== undefined) this.#ids.add(msg.id);
    else if (this.#msgs.length > SCAN_IDS_UP_TO)
      this.#ids = new Set(this.#msgs.map((stored) => stored.id));
  }

  #has(id: string): boolean {
    if (this.#ids !== undefined) return this.#ids.has(id);
    for (let i = 0; i < this.#msgs.length; i++) {
      const stored = this.#msgs[i]!;
      if (stored.id === id) return true;
    }
    return false;
  }

  /** The stored messages, oldest first: a frozen array, the same one until memory changes. */
  messages(): readonly Msg[] {
    if (!this.#frozen) {
      Object.freeze(this.#msgs);
      this.#frozen = true;
    }
    return this.#msgs;
  }

  /** Removes the messages with these ids; returns how many were removed. */
  delete(ids: Iterable<string>): number {
    const drop = new Set(ids);
    const before = this.#msgs.length;
    const kept = this.#msgs.filter((msg) => !drop.has(msg.id));
    const removed = before - kept.length;
    if (removed === 0) return 0;
    this.#msgs = kept;
    this.#frozen = false;
    if (this.#ids !== undefined) for (const id of drop) this.#ids.delete(id);
    return removed;
  }

  /** Replaces the whole conversation with `msgs` (used by compaction). */
  replace(msgs: readonly Msg[]): void {
    this.#reset();
    this.add(msgs);
  }

  /** Removes every message. */
  clear(): void {
    this.#reset();
  }

  // Not clear(): a subclass's clear() is not called by replace() or the constructor.
  #reset(): void {
    this.#msgs = [];
    this.#frozen = false;
    this.#ids = undefined;
  }

  /** How many messages are stored. */
  get size(): number {
    return this.#msgs.length;
  }

  /** `{ version: 1, messages }`, a deep copy: changing it never changes memory. */
  stateDict(): JsonObject {
    return { version: 1, messages: structuredClone(this.#msgs) as unknown as JsonObject[] };
  }

  /**
   * `{ version: 1, messages }` with the stored messages themselves (not copies), for durable
   * checkpoints: a message is not changed in place once stored (change memory through its
   * methods), so a checkpoint compares them by identity.
   */
  checkpointDict(): JsonObject {
    return { version: 1, messages: this.messages() as unknown as JsonObject[] };
  }

  /**
   * Restores the conversation from `stateDict()` output (copied, then frozen deeply like
   * every stored Msg). Validates every message first and throws `StateError` with a path
   * like `messages[3].role`, leaving memory unchanged.
   */
  loadStateDict(state: JsonObject): void {
    if (!isJsonObject(state)) throw new StateError('Memory state must be an object.', '(root)');
    if (state['version'] !== 1) {
      throw new StateError(
        `Memory state version ${JSON.stringify(state['version'])} is not supported (expected 1).`,
        'version',
      );
    }
    const messages = state['messages'];
    if (!Array.isArray(messages))
      throw new StateError('Memory state "messages" must be an array.', 'messages');
    messages.forEach((msg, index) => {
      assertMsg(msg, `messages[${index}]`);
    });
    this.replace(structuredClone(messages) as unknown as Msg[]);
  }
}

function assertMsg(value: unknown, path: string): void {
  const msg = expectObject(value, path, 'a message object');
  for (const key of ['id', 'name', 'timestamp'] as const) expectString(msg[key], `${path}.${key}`);
  if (typeof msg['role'] !== 'string' || !ROLES.has(msg['role'])) {
    fail(`${path}.role`, `must be one of ${[...ROLES].join(', ')}`);
  }
  if (!isJsonObject(msg['metadata'])) fail(`${path}.metadata`, 'must be an object');
  const content = msg['content'];
  if (!Array.isArray(content)) fail(`${path}.content`, 'must be an array of content blocks');
  content.forEach((block, index) => {
    assertBlock(block, `${path}.content[${index}]`);
  });
}

function assertBlock(value: unknown, path: string): void {
  const block = expectObject(value, path, 'a content block');
  switch (block['type']) {
    case 'text':
      expectString(block['text'], `${path}.text`);
      return;
    case 'thinking':
      expectString(block['thinking'], `${path}.thinking`);
      if (block['signature'] !== undefined) expectString(block['signature'], `${path}.signature`);
      expectOptionalObject(block['provider'], `${path}.provider`);
      return;
    case 'image':
      expectString(block['url'], `${path}.url`);
      return;
    case 'tool_use':
      expectString(block['id'], `${path}.id`);
      expectString(block['name'], `${path}.name`);
      expectObject(block['input'], `${path}.input`, 'an object');
      expectOptionalObject(block['provider'], `${path}.provider`);
      return;
    case 'tool_result':
      assertToolResult(block, path);
      return;
    default:
      fail(`${path}.type`, 'must be one of text, thinking, image, tool_use, tool_result');
  }
}

function assertToolResult(block: Record<string, unknown>, path: string): void {
  expectString(block['id'], `${path}.id`);
  expectString(block['name'], `${path}.name`);
  const isError = block['isError'];
  if (isError !== undefined && typeof isError !== 'boolean')
    fail(`${path}.isError`, 'must be a boolean');
  const output = block['output'];
  if (typeof output === 'string') return;
  if (!Array.isArray(output))
    fail(`${path}.output`, 'must be a string or an array of text/image blocks');
  output.forEach((part, index) => {
    const partPath = `${path}.output[${index}]`;
    const type = expectObject(part, partPath, 'a text or image block')['type'];
    if (type !== 'text' && type !== 'image') fail(`${partPath}.type`, 'must be text or image');
    assertBlock(part, partPath);
  });
}

function expectObject(value: unknown, path: string, what: string): Record<string, unknown> {
  if (!isJsonObject(value)) fail(path, `must be ${what}`);
  return value;
}

function expectOptionalObject(value: unknown, path: string): void {
  if (value !== undefined) expectObject(value, path, 'an object');
}

function expectString(value: unknown, path: string): void {
  if (typeof value !== 'string') fail(path, 'must be a string');
}

function fail(path: string, problem: string): never {
  throw new StateError(
    `Invalid memory state: ${path} ${problem}; fix or remove that message.`,
    path,
  );
}
