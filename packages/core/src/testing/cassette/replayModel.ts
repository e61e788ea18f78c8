import { Observable } from 'rxjs';
import { CassetteMismatchError, ModelError, ScriptExhaustedError } from '../../errors.js';
import type { ChatChunk, ChatModel, ChatRequest } from '../../model/chatModel.js';
import { checkOptions } from '../../options/checkOptions.js';
import { abortError } from '../turnErrors.js';
import { type CassetteExchange, readCassette, wireFormOf } from './cassetteFile.js';
import { firstDifference } from './firstDifference.js';

/** Options of `replayModel`. */
export interface ReplayModelOptions {
  /**
   * `'strict'` (default): a request is answered by the first unused exchange whose recorded
   * request is equal to it (so sequential runs replay in order, and concurrent runs whose
   * requests interleave differently still find theirs); when none is, the request errors
   * with `CassetteMismatchError` against the first unused exchange. `'order'`: the next
   * exchange answers whatever the request is.
   */
  readonly match?: 'strict' | 'order';
  /** Reported as `modelName` (default: the model name recorded in the cassette). */
  readonly modelName?: string;
}

const OPTION_KEYS = ['match', 'modelName'] as const;
const VALUE_LIMIT = 120;

/**
 * A `ChatModel` that answers from the cassette written by `recordModel`: each exchange is
 * used once, and its chunks are emitted again, in order, synchronously. A recorded failure
 * is raised again as a `ModelError` with its status. The file is read (and checked) when
 * `replayModel` is called: a missing or unreadable cassette throws `InvalidArgumentError`.
 *
 * `stream()` is cold: each subscription is one request. It errors with
 * `CassetteMismatchError` (strict mode: the JSON path of the first difference and both
 * values), `ScriptExhaustedError` when every exchange was used, or an `AbortError` when the
 * request's signal is already aborted.
 */
export function replayModel(path: string, options: ReplayModelOptions = {}): ChatModel {
  checkOptions(options, OPTION_KEYS, 'replayModel');
  const match = options.match ?? 'strict';
  if (match !== 'strict' && match !== 'order') {
    throw new TypeError(`replayModel: match must be "strict" or "order", not ${String(match)}.`);
  }
  const exchanges = readCassette(path);
  const used = new Array<boolean>(exchanges.length).fill(false);
  let received = 0;
  const take = (request: ChatRequest): CassetteExchange => {
    const number = ++received;
    const wire = wireFormOf(request);
    const next = used.indexOf(false);
    if (next === -1) {
      throw new ScriptExhaustedError(
        `Cassette ${path} has ${exchanges.length} exchange(s), all used; request #${number} has no answer: record the cassette again (RECORD=1).`,
      );
    }
    const index =
      match === 'order'
        ? next
        : exchanges.findIndex(
            (exchange, i) => !used[i] && !firstDifference(exchange.request, wire),
          );
    if (index === -1) throw mismatch(path, next, exchanges[next]!, wire);
    used[index] = true;
    return exchanges[index]!;
  };
  return {
    modelName: options.modelName ?? exchanges[0]?.model ?? 'replayed-model',
    stream: (request) =>
      new Observable<ChatChunk>((subscriber) => {
        if (request.signal?.aborted) return subscriber.error(abortError(request.signal));
        let exchange: CassetteExchange;
        try {
          exchange = take(request);
        } catch (error) {
          return subscriber.error(error);
        }
        for (const chunk of exchange.chunks) {
          if (subscriber.closed) return;
          subscriber.next(chunk);
        }
        if (exchange.error) {
          const { message, status, retryable } = exchange.error;
          return subscriber.error(
            new ModelError(message, {
              ...(status !== undefined && { status }),
              ...(retryable !== undefined && { retryable }),
            }),
          );
        }
        subscriber.complete();
      }),
  };
}

function mismatch(
  path: string,
  index: number,
  exchange: CassetteExchange,
  wire: unknown,
): CassetteMismatchError {
  const difference = firstDifference(exchange.request, wire)!;
  const expected = show(difference.expected);
  const actual = show(difference.actual);
  const where = difference.path === '' ? 'the request' : difference.path;
  return new CassetteMismatchError(
    `Cassette ${path}: the request differs from recorded exchange #${index + 1} at ${where}: recorded ${expected}, received ${actual}. Record the cassette again (RECORD=1) if the change is intended.`,
    { cassette: path, exchange: index + 1, path: difference.path, expected, actual },
  );
}

function show(value: unknown): string {
  if (value === undefined) return '(nothing)';
  const text = JSON.stringify(value);
  return text.length > VALUE_LIMIT ? `${text.slice(0, VALUE_LIMIT - 1)}…` : text;
}
