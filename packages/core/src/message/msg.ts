import { flatString, newId } from '../internal/newId.js';
import type { JsonObject } from '../json.js';
import { checkOptions } from '../options/checkOptions.js';
import type { ContentBlock } from './contentBlock.js';

/** Who produced a message, in the chat-completion sense. */
export type Role = 'system' | 'user' | 'assistant' | 'tool';

/**
 * A message: a plain, JSON-serialisable object. `name` is who spoke (an agent's name,
 * `"user"`, or `"system"` for framework-injected messages), independent of `role`.
 * Treat Msgs as immutable: hooks that change one return or assign a new object.
 */
export interface Msg {
  readonly id: string;
  readonly name: string;
  readonly role: Role;
  readonly content: readonly ContentBlock[];
  readonly metadata: JsonObject;
  readonly timestamp: string;
}

/** Optional fields of the message factories. */
export interface MsgOptions {
  readonly name?: string;
  readonly metadata?: JsonObject;
  readonly id?: string;
}

/** What `createMsg` needs; `id` and `timestamp` are filled in. */
export interface CreateMsgInit {
  readonly name: string;
  readonly role: Role;
  readonly content: string | readonly ContentBlock[];
  readonly metadata?: JsonObject;
  readonly id?: string;
}

const MSG_OPTION_KEYS = new Set(['name', 'metadata', 'id']);
const CREATE_MSG_KEYS = new Set(['name', 'role', 'content', 'metadata', 'id']);

/**
 * Creates a Msg, filling a fresh `id` and an ISO `timestamp`. Throws a TypeError for a key
 * `CreateMsgInit` does not have.
 */
export function createMsg(init: CreateMsgInit): Msg {
  checkOptions(init, CREATE_MSG_KEYS, 'createMsg()');
  return {
    id: init.id === undefined ? newId() : flatString(init.id),
    name: init.name,
    role: init.role,
    content:
      typeof init.content === 'string' ? [{ type: 'text', text: init.content }] : init.content,
    metadata: init.metadata ?? {},
    timestamp: isoNow(),
  };
}

/** A user message (`name` defaults to `"user"`). */
export function userMsg(text: string, opts: MsgOptions = {}): Msg {
  checkOptions(opts, MSG_OPTION_KEYS, 'userMsg()');
  return createMsg({ ...opts, name: opts.name ?? 'user', role: 'user', content: text });
}

/** An assistant message from text or blocks (`name` defaults to `"assistant"`). */
export function assistantMsg(
  textOrBlocks: string | readonly ContentBlock[],
  opts: MsgOptions = {},
): Msg {
  checkOptions(opts, MSG_OPTION_KEYS, 'assistantMsg()');
  return createMsg({
    ...opts,
    name: opts.name ?? 'assistant',
    role: 'assistant',
    content: textOrBlocks,
  });
}

/** A system message (`name` defaults to `"system"`). */
export function systemMsg(text: string, opts: MsgOptions = {}): Msg {
  checkOptions(opts, MSG_OPTION_KEYS, 'systemMsg()');
  return createMsg({ ...opts, name: opts.name ?? 'system', role: 'system', content: text });
}

/** A copy of `msg` with `metadata` merged over its own (a new object; `msg` is untouched). */
export function withMetadata(msg: Msg, metadata: JsonObject): Msg {
  return { ...msg, metadata: { ...msg.metadata, ...metadata } };
}

let lastMillis = Number.NaN;
let lastIso = '';

/**
 * `new Date().toISOString()`, formatted once per millisecond: a turn creates several Msgs
 * within the same millisecond, and they then share one timestamp string.
 */
function isoNow(): string {
  const millis = Date.now();
  if (millis !== lastMillis) {
    lastMillis = millis;
    lastIso = new Date(millis).toISOString();
  }
  return lastIso;
}
