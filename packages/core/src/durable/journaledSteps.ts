import { Observable, type Subscription } from 'rxjs';
import { InterruptedError, ModelError } from '../errors.js';
import type { JsonValue } from '../json.js';
import type { ToolResultBlock } from '../message/contentBlock.js';
import type { ChatChunk } from '../model/chatModel.js';
import { interruptedOutput } from '../tool/runTool.js';
import type { ToolEvent } from '../tool/tool.js';
import type { StepJournal } from './stepJournal.js';

/** The result text of a tool call in doubt: it started before a crash and left no result. */
export const IN_DOUBT_OUTPUT =
  '[interrupted] the process stopped while this tool ran; its outcome is unknown';

/** What a model step records: the chunks as streamed, or how the request ended without them. */
type ModelRecord =
  | { readonly chunks: readonly ChatChunk[] }
  | { readonly error: { readonly message: string; readonly status?: number } }
  | { readonly aborted: true };

/** What a tool step records: the result, and whether it was written because the call is in doubt. */
interface ToolRecord {
  readonly result: ToolResultBlock;
  readonly inDoubt?: boolean;
}

/**
 * One model request as the journaled step `model`: the first time, `stream` is requested and
 * its chunks go to the subscriber as they come (and are recorded as they were streamed);
 * when the call is retried after a crash, the recorded chunks are emitted again without a
 * request. A failed request is recorded and replayed as a `ModelError`; a request cut by
 * `signal` (an interrupt) as an `InterruptedError` naming `agentName`. Cold; unsubscribing
 * cancels the request (recorded as cut).
 */
export function journaledModelStream(
  journal: StepJournal,
  stream: Observable<ChatChunk>,
  signal: AbortSignal,
  agentName: string,
): Observable<ChatChunk> {
  return new Observable<ChatChunk>((subscriber) => {
    let live = false;
    let closed = false;
    let inner: Subscription | undefined;
    let settle: ((record: ModelRecord) => void) | undefined;
    const run = (): Promise<ModelRecord> =>
      new Promise<ModelRecord>((resolve) => {
        live = true;
        settle = resolve;
        const chunks: ChatChunk[] = [];
        inner = stream.subscribe({
          next: (chunk) => {
            chunks.push(chunk);
            if (!closed) subscriber.next(chunk);
          },
          error: (error: unknown) => {
            resolve(signal.aborted ? { aborted: true } : { error: errorRecord(error) });
            if (!closed) subscriber.error(error);
          },
          complete: () => {
            resolve(signal.aborted ? { aborted: true } : { chunks });
            if (!closed) subscriber.complete();
          },
        });
      });
    journal.step('model', run as unknown as () => Promise<JsonValue>).then(
      (value) => {
        if (live || closed) return;
        const record = value as unknown as ModelRecord;
        if ('chunks' in record) {
          for (const chunk of record.chunks) subscriber.next(chunk);
          subscriber.complete();
        } else if ('error' in record) {
          const { message, status } = record.error;
          subscriber.error(new ModelError(message, status === undefined ? {} : { status }));
        } else subscriber.error(new InterruptedError(agentName));
      },
      (error: unknown) => {
        if (!closed) subscriber.error(error);
      },
    );
    return () => {
      closed = true;
      inner?.unsubscribe();
      settle?.({ aborted: true });
    };
  });
}

/**
 * One tool run as two journaled steps: `tool started <name> <id>` (a marker), then
 * `tool <name> <id>` (the result); an idempotent tool's run is the result step alone. The first time, the tool runs and its events go to the
 * subscriber as they come; when the call is retried, a recorded result is emitted without a
 * run. A call whose marker was recorded by an earlier attempt but whose result was not is
 * *in doubt*: it runs again when `idempotent`, else its result is the error result
 * `IN_DOUBT_OUTPUT` and `onInDoubt` is called. Cold; emits the run's chunks (live runs only)
 * and one result; unsubscribing stops the run (recorded as interrupted).
 */
export function journaledToolRun(
  journal: StepJournal,
  call: { readonly id: string; readonly name: string },
  idempotent: boolean,
  events: Observable<ToolEvent>,
  onInDoubt: () => void,
): Observable<ToolEvent> {
  return new Observable<ToolEvent>((subscriber) => {
    let fresh = false;
    let live = false;
    let closed = false;
    let inner: Subscription | undefined;
    let settle: ((record: ToolRecord) => void) | undefined;
    const runTool = (): Promise<ToolRecord> =>
      new Promise<ToolRecord>((resolve) => {
        live = true;
        settle = resolve;
        inner = events.subscribe({
          next: (event) => {
            if (event.type === 'result') resolve({ result: event.result });
            if (!closed) subscriber.next(event);
          },
          error: (error: unknown) => {
            resolve({ result: errorResult(call, interruptedOutput(call.name)) });
            if (!closed) subscriber.error(error);
          },
          complete: () => {
            if (!closed) subscriber.complete();
          },
        });
      });
    const step = (): Promise<ToolRecord> =>
      fresh || idempotent
        ? runTool()
        : Promise.resolve({ result: errorResult(call, IN_DOUBT_OUTPUT), inDoubt: true });
    // An idempotent tool runs again when in doubt anyway: no marker, one step fewer.
    const marked = idempotent
      ? Promise.resolve(true)
      : journal.step(`tool started ${call.name} ${call.id}`, async () => {
          fresh = true;
          return true;
        });
    marked
      .then(() =>
        closed ? undefined : journal.step(`tool ${call.name} ${call.id}`, step as never),
      )
      .then(
        (value) => {
          if (live || closed || value === undefined) return;
          const record = value as unknown as ToolRecord;
          if (record.inDoubt === true) onInDoubt();
          subscriber.next({ type: 'result', result: record.result });
          subscriber.complete();
        },
        (error: unknown) => {
          if (!closed) subscriber.error(error);
        },
      );
    return () => {
      closed = true;
      inner?.unsubscribe();
      settle?.({ result: errorResult(call, interruptedOutput(call.name)) });
    };
  });
}

function errorResult(call: { id: string; name: string }, output: string): ToolResultBlock {
  return { type: 'tool_result', id: call.id, name: call.name, output, isError: true };
}

function errorRecord(error: unknown): { message: string; status?: number } {
  const message = error instanceof Error ? error.message : String(error);
  const status = (error as { status?: unknown } | undefined)?.status;
  return typeof status === 'number' ? { message, status } : { message };
}
