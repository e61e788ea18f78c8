import { isJsonObject, type JsonObject } from '../json.js';
import type { Msg } from '../message/msg.js';
import { readSealed, type SealedList } from './segments.js';

/** The marker and format version of a checkpoint head in a session. */
export const CHECKPOINT_FORMAT = 'rxagent.checkpoint/2';

/** The first format: the whole state in the head (still read). */
const CHECKPOINT_FORMAT_1 = 'rxagent.checkpoint/1';

/** Whether a checkpoint's call still runs (or its process died) or ended. */
export type RunStatus = 'running' | 'finished';

/** The call part of a checkpoint: what a fresh process needs to continue it. */
export interface CheckpointCall {
  /** The call's id (`CallContext.callId` of the call that started it). */
  readonly id: string;
  readonly status: RunStatus;
  /** The call's input, as `call()` got it (before preCall hooks). */
  readonly input: readonly Msg[];
  /** The JSON-serialisable call options (`maxIters`, `budget`). */
  readonly options: JsonObject;
  /** What the subclass recorded at its last step boundary (`context.checkpoint(progress)`). */
  readonly progress?: JsonObject;
  /** How many times the call was recovered. */
  readonly recoveries: number;
  /** The reply of a finished call (not of a failed one). */
  readonly reply?: Msg;
}

/** A checkpoint: the agent's `stateDict()` and, once it was called, its last call. */
export interface Checkpoint {
  readonly state: JsonObject;
  readonly call?: CheckpointCall;
}

/**
 * What a session holds under a durable key: the checkpoint's state without the messages of
 * its sealed segments (saved under keys of their own, see `Segments`), the list of those
 * segments, and the call.
 */
export interface CheckpointHead extends Checkpoint {
  readonly sealed: readonly SealedList[];
}

/** The JSON a checkpoint head is saved as. */
export function headJson(head: CheckpointHead): JsonObject {
  const json: JsonObject = { format: CHECKPOINT_FORMAT, state: head.state };
  if (head.sealed.length > 0) json['sealed'] = head.sealed as unknown as JsonObject[];
  if (head.call) json['call'] = head.call as unknown as JsonObject;
  return json;
}

/**
 * Reads what a session holds under durable key `key`: a checkpoint head (or one of the first
 * format, whole), or a plain state dict (saved with `session.save(key, agent.stateDict())`),
 * which is a checkpoint without a call. Throws `SessionCorruptError` for a malformed head.
 */
export function readHead(key: string, json: JsonObject): CheckpointHead {
  const format = json['format'];
  if (
    (format !== CHECKPOINT_FORMAT && format !== CHECKPOINT_FORMAT_1) ||
    !isJsonObject(json['state'])
  )
    return { state: json, sealed: [] };
  const sealed = format === CHECKPOINT_FORMAT ? readSealed(key, json['sealed']) : [];
  const call = json['call'];
  if (!isJsonObject(call)) return { state: json['state'], sealed };
  return { state: json['state'], sealed, call: call as unknown as CheckpointCall };
}

/** Whether `json` (saved under `key`) is a checkpoint whose call did not finish. */
export function isUnfinished(key: string, json: JsonObject | undefined): boolean {
  return json !== undefined && readHead(key, json).call?.status === 'running';
}
