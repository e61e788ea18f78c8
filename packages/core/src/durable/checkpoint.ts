import { isJsonObject, type JsonObject } from '../json.js';
import type { Msg } from '../message/msg.js';
import { readSealed, type SealedList } from './sealedLists.js';

/**
 * The marker and format version of a checkpoint head in a session. Format 3: every
 * `messages` array in segments (sealed blocks as runs of one generation, and the tail's
 * pieces), none in the head.
 */
export const CHECKPOINT_FORMAT = 'rxagent.checkpoint/3';

/** The second format: sealed blocks listed key by key, the unfilled block in the head (read). */
const CHECKPOINT_FORMAT_2 = 'rxagent.checkpoint/2';

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

/**
 * The JSON a checkpoint head is saved as: `state` without its segmented messages, `sealed`
 * the lists of segments (`Segments.split`), and the call.
 */
export function headJson(
  state: JsonObject,
  sealed: readonly JsonObject[],
  call: CheckpointCall | undefined,
): JsonObject {
  const json: JsonObject = { format: CHECKPOINT_FORMAT, state };
  if (sealed.length > 0) json['sealed'] = sealed as JsonObject[];
  if (call) json['call'] = call as unknown as JsonObject;
  return json;
}

/**
 * Reads what a session holds under durable key `key`: a checkpoint head (of any format: the
 * first held the whole state, the second the unfilled block of messages), or a plain state dict (saved with `session.save(key, agent.stateDict())`),
 * which is a checkpoint without a call. Throws `SessionCorruptError` for a malformed head.
 */
export function readHead(key: string, json: JsonObject): CheckpointHead {
  const format = json['format'];
  const version =
    format === CHECKPOINT_FORMAT
      ? 3
      : format === CHECKPOINT_FORMAT_2
        ? 2
        : format === CHECKPOINT_FORMAT_1
          ? 1
          : undefined;
  if (version === undefined || !isJsonObject(json['state'])) return { state: json, sealed: [] };
  const sealed = version === 1 ? [] : readSealed(key, json['sealed'], version);
  const call = json['call'];
  if (!isJsonObject(call)) return { state: json['state'], sealed };
  return { state: json['state'], sealed, call: call as unknown as CheckpointCall };
}

/** Whether `json` (saved under `key`) is a checkpoint whose call did not finish. */
export function isUnfinished(key: string, json: JsonObject | undefined): boolean {
  return json !== undefined && readHead(key, json).call?.status === 'running';
}
