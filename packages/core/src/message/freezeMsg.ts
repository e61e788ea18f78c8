import { freezeJson } from './freezeJson.js';
import type { Msg } from './msg.js';

/**
 * Freezes `msg` deeply, in place, and returns it: the Msg, its `content` array, every block
 * (a tool call's `input`, a result's `output`, a block's `provider` data) and its `metadata`,
 * all the way down. Every factory (`createMsg`, `userMsg`, `assistantMsg`, `systemMsg`,
 * `withMetadata`) and every API that yields a Msg returns one frozen this way, so memory,
 * formatters, hooks and checkpoints may keep, share and compare Msgs by identity.
 *
 * Frozen in place, not copied: the objects a Msg is built from (content blocks, metadata,
 * tool inputs) are frozen with it, so build them for the Msg and do not change them after.
 * An object that is already frozen is trusted to be frozen all through and is not walked
 * again, so freezing a Msg built from frozen parts (`withMetadata`, a new Msg reusing the
 * blocks of another) costs only its new objects.
 */
export function freezeMsg<T extends Msg>(msg: T): T {
  freezeJson(msg);
  return msg;
}

/** Freezes each Msg of `msgs` (see `freezeMsg`) and returns `msgs` itself. */
export function freezeMsgs<T extends readonly Msg[]>(msgs: T): T {
  for (const msg of msgs) freezeJson(msg);
  return msgs;
}
