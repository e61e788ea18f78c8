import { isJsonObject, type JsonObject } from '../json.js';
import type { Msg } from '../message/msg.js';

/** The marker and format version of a checkpoint in a session. */
export const CHECKPOINT_FORMAT = 'rxagent.checkpoint/1';

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

/** The JSON a checkpoint is saved as. */
export function checkpointJson(checkpoint: Checkpoint): JsonObject {
  const json: JsonObject = { format: CHECKPOINT_FORMAT, state: checkpoint.state };
  if (checkpoint.call) json['call'] = checkpoint.call as unknown as JsonObject;
  return json;
}

/**
 * Reads what a session holds under a durable key: a checkpoint, or a plain state dict (saved
 * with `session.save(key, agent.stateDict())`), which is a checkpoint without a call.
 */
export function readCheckpoint(json: JsonObject): Checkpoint {
  if (json['format'] !== CHECKPOINT_FORMAT || !isJsonObject(json['state'])) return { state: json };
  const call = json['call'];
  if (!isJsonObject(call)) return { state: json['state'] };
  return { state: json['state'], call: call as unknown as CheckpointCall };
}

/** Whether `json` is a checkpoint whose call did not finish. */
export function isUnfinished(json: JsonObject | undefined): boolean {
  return json !== undefined && readCheckpoint(json).call?.status === 'running';
}
