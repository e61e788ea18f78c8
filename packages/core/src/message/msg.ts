import { flatString, newId } from '../internal/newId.js';
import type { JsonObject } from '../json.js';
import { checkOptions } from '../options/checkOptions.js';
import type { ContentBlock } from './contentBlock.js';
import { freezeJson } from './freezeJson.js';

/** Who produced a message, in the chat-completion sense. */
export type Role = 'system' | 'user' | 'assistant' | 'tool';

/**
 * A message: a plain, JSON-serialisable object. `name` is who spoke (an agent's name,
 * `"user"`, or `"system"` for framework-injected messages), independent of `role`.
 *
 * Msgs are immutable values: the factories and every API that yields a Msg return it deeply
 * frozen (see `freezeMsg`), so changing one in place throws a TypeError in strict-mode code
 * (every ES module). A change is a new Msg (`withMetadata`, `createMsg`, a spread passed to
 * `freezeMsg`); hooks assign it to the event's mutable field.
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

/** The metadata of a Msg made without any: one frozen object shared by all of them. */
const NO_METADATA: JsonObject = Object.freeze({});

/**
 * Creates a deeply frozen Msg, filling a fresh `id` and an ISO `timestamp`. The `content`
 * blocks and `metadata` passed in are frozen in place, not copied (build them for this Msg).
 * Throws a TypeError for a key `CreateMsgInit` does not have.
 */
export function createMsg(init: CreateMsgInit): Msg {
  checkOptions(init, CREATE_MSG_KEYS, 'createMsg()');
  return freezeJson({
    id: init.id === undefined ? newId() : flatString(init.id),
    name: init.name,
    role: init.role,
    content:
      typeof init.content === 'string' ? [{ type: 'text', text: init.content }] : init.content,
    metadata: init.metadata ?? NO_METADATA,
    timestamp: isoNow(),
  });
}

/** A user message (`name` defaults to `"user"`), deeply frozen (`metadata` in place). */
export function userMsg(text: string, opts: MsgOptions = {}): Msg {
  checkOptions(opts, MSG_OPTION_KEYS, 'userMsg()');
  return createMsg({ ...opts, name: opts.name ?? 'user', role: 'user', content: text });
}

/**
 * An assistant message from text or blocks (`name` defaults to `"assistant"`), deeply frozen:
 * the blocks and `metadata` passed in are frozen in place.
 */
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

/** A system message (`name` defaults to `"system"`), deeply frozen (`metadata` in place). */
export function systemMsg(text: string, opts: MsgOptions = {}): Msg {
  checkOptions(opts, MSG_OPTION_KEYS, 'systemMsg()');
  return createMsg({ ...opts, name: opts.name ?? 'system', role: 'system', content: text });
}

/**
 * A new, deeply frozen Msg: `msg` with `metadata` merged over its own (same id, content and
 * timestamp; `msg` is untouched). The values of `metadata` are frozen in place.
 */
export function withMetadata(msg: Msg, metadata: JsonObject): Msg {
  return freezeJson({ ...msg, metadata: { ...msg.metadata, ...metadata } });
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
