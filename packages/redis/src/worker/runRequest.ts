import { InvalidArgumentError, type JsonObject, type Msg } from '@rxagent/core';

/** What a request asks of a thread: a call, or messages to add to its conversation. */
export type RunKind = 'call' | 'observe';

/** One run request of a worker queue, as read from its stream. */
export interface RunRequest {
  /** The stream entry id (acknowledged when the run finished). */
  readonly entryId: string;
  readonly runId: string;
  readonly threadId: string;
  /** The request's place on its thread: it runs after position - 1 finished. */
  readonly position: number;
  readonly kind: RunKind;
  readonly input: Msg[];
  readonly options: JsonObject;
  /** The entry's fields as read (to hand the request over unchanged). */
  readonly fields: Record<string, string>;
}

/**
 * A run request from a stream entry. Throws `InvalidArgumentError` naming what is wrong for
 * an entry that is not one (another program's entry on the queue stream).
 */
export function parseRunRequest(id: string, fields: Record<string, string>): RunRequest {
  const fail = (what: string): never => {
    throw new InvalidArgumentError(`Worker queue entry ${id} is not a run request: ${what}.`);
  };
  const { runId, threadId, kind } = fields;
  if (!runId) fail('it has no runId');
  if (!threadId) fail('it has no threadId');
  const position = Number(fields['position']);
  if (!Number.isInteger(position) || position < 1) fail('its position is not a positive integer');
  if (kind !== 'call' && kind !== 'observe')
    fail(`its kind ${JSON.stringify(kind)} is neither "call" nor "observe"`);
  let input: unknown;
  let options: unknown;
  try {
    input = JSON.parse(fields['input'] ?? '[]');
    options = JSON.parse(fields['options'] ?? '{}');
  } catch {
    fail('its input or options are not JSON');
  }
  if (!Array.isArray(input)) fail('its input is not an array of Msgs');
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    fail('its options are not an object');
  return {
    entryId: id,
    runId: runId as string,
    threadId: threadId as string,
    position,
    kind: kind as RunKind,
    input: input as Msg[],
    options: options as JsonObject,
    fields,
  };
}
