import { isJsonObject } from '../json.js';
import type { Msg } from '../message/msg.js';

/** Where a reply hands the conversation: the target agent's name and the model's reason. */
export interface Handoff {
  readonly to: string;
  readonly reason?: string;
}

/**
 * The handoff a reply asks for, or `undefined` when it asks for none. A reply hands off when
 * its `metadata.generateReason` is `'handoff'` and `metadata.handoff.to` names an agent (a
 * ReActAgent's `transfer_to_<name>` tools end a call this way); `handoffPipeline` follows it.
 */
export function handoffOf(msg: Msg): Handoff | undefined {
  const { metadata } = msg;
  if (metadata['generateReason'] !== 'handoff') return undefined;
  const handoff = metadata['handoff'];
  if (!isJsonObject(handoff) || typeof handoff['to'] !== 'string') return undefined;
  const reason = handoff['reason'];
  return typeof reason === 'string' ? { to: handoff['to'], reason } : { to: handoff['to'] };
}
