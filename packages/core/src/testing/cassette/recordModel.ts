import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Observable } from 'rxjs';
import { ModelError } from '../../errors.js';
import { redactSecrets } from '../../hooks/redactSecrets.js';
import type { ChatChunk, ChatModel, ChatRequest, Usage } from '../../model/chatModel.js';
import { checkOptions } from '../../options/checkOptions.js';
import {
  CASSETTE_VERSION,
  type CassetteError,
  type CassetteExchange,
  wireFormOf,
} from './cassetteFile.js';

/** Options of `recordModel`. */
export interface RecordModelOptions {
  /**
   * `'overwrite'` (default): the first exchange replaces what the file held, so recording
   * again starts a fresh cassette. `'append'`: exchanges are added after the existing ones.
   */
  readonly mode?: 'overwrite' | 'append';
}

const OPTION_KEYS = ['mode'] as const;

/**
 * A `ChatModel` that forwards every request to `model` and appends each finished exchange
 * to the cassette at `path`, one JSON line per request: the request as the `ChatModel`
 * received it, every chunk of the answer, the usage, and the error it ended with (a failed
 * request is recorded too). Headers and keys never reach a `ChatModel`, so they never reach
 * the file. A request cancelled before it ended (unsubscribed or aborted) is not recorded.
 *
 * `stream()` is cold and behaves exactly like `model.stream()`: same chunks, same
 * completion, same errors; unsubscribing unsubscribes from `model`'s stream.
 *
 * @example
 * ```ts
 * const model = process.env.RECORD
 *   ? recordModel(new OpenAIChatModel({ model: 'gpt-4o-mini' }), 'test/weather.cassette.jsonl')
 *   : replayModel('test/weather.cassette.jsonl');
 * ```
 */
export function recordModel(
  model: ChatModel,
  path: string,
  options: RecordModelOptions = {},
): ChatModel {
  checkOptions(options, OPTION_KEYS, 'recordModel');
  const mode = options.mode ?? 'overwrite';
  if (mode !== 'overwrite' && mode !== 'append') {
    throw new TypeError(`recordModel: mode must be "overwrite" or "append", not ${String(mode)}.`);
  }
  let started = mode === 'append';
  const write = (exchange: CassetteExchange): void => {
    const line = `${JSON.stringify(exchange)}\n`;
    mkdirSync(dirname(path), { recursive: true });
    if (started) {
      appendFileSync(path, line);
    } else {
      writeFileSync(path, line);
      started = true;
    }
  };
  return {
    modelName: model.modelName,
    stream: (request) => recordExchange(model, request, write),
  };
}

function recordExchange(
  model: ChatModel,
  request: ChatRequest,
  write: (exchange: CassetteExchange) => void,
): Observable<ChatChunk> {
  return new Observable<ChatChunk>((subscriber) => {
    const wire = wireFormOf(request);
    const chunks: ChatChunk[] = [];
    let usage: Usage | undefined;
    const base = { version: CASSETTE_VERSION, model: model.modelName, request: wire } as const;
    return model.stream(request).subscribe({
      next: (chunk) => {
        chunks.push(JSON.parse(JSON.stringify(chunk)) as ChatChunk);
        if (chunk.usage) usage = chunk.usage;
        subscriber.next(chunk);
      },
      error: (error: unknown) => {
        if (!request.signal?.aborted) {
          write({ ...base, chunks, ...(usage && { usage }), error: cassetteError(error) });
        }
        subscriber.error(error);
      },
      complete: () => {
        write({ ...base, chunks, ...(usage && { usage }) });
        subscriber.complete();
      },
    });
  });
}

/**
 * A failed request as the cassette keeps it. Providers echo part of a rejected key in their
 * error text, so the message is redacted (known key shapes and the values of `*KEY*`,
 * `*TOKEN*`, `*SECRET*` environment variables).
 */
function cassetteError(error: unknown): CassetteError {
  const raw = error instanceof Error ? error.message : String(error);
  const message = redactSecrets(raw, { secrets: environmentSecrets() }).text;
  if (error instanceof ModelError) {
    return {
      message,
      ...(error.status !== undefined && { status: error.status }),
      retryable: error.retryable,
    };
  }
  return { message };
}

function environmentSecrets(): Array<[string, string]> {
  return Object.entries(process.env).flatMap(([name, value]) =>
    /KEY|TOKEN|SECRET|PASSWORD/i.test(name) && value ? [[name, value] as [string, string]] : [],
  );
}
