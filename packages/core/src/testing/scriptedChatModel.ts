import {
  concat,
  concatMap,
  defer,
  EMPTY,
  from,
  ignoreElements,
  type MonoTypeOperatorFunction,
  map,
  Observable,
  of,
  throwError,
  timer,
} from 'rxjs';
import { ModelError, ScriptExhaustedError } from '../errors.js';
import type { ChatChunk, ChatModel, ChatRequest } from '../model/chatModel.js';
import { resolveReply, type ScriptedReply, scriptExhaustedMessage } from './script.js';
import { planTurn, type TurnPlan } from './turnPlan.js';
import { validateChatRequest } from './validateChatRequest.js';
import { toWireRequest } from './wireRequest.js';

/** Options of a `ScriptedChatModel`. */
export interface ScriptedChatModelOptions {
  /** Reported as `modelName` and sent as `model` to the validator; default `"scripted-model"`. */
  modelName?: string;
  /** Reject requests the real Chat Completions API would reject (default `true`). */
  strict?: boolean;
}

/**
 * A `ChatModel` that answers from a script, one reply per request, and (when strict) rejects
 * every request the real OpenAI API would reject, with the validator of the strict server.
 *
 * @example
 * ```ts
 * const model = new ScriptedChatModel([
 *   { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] },
 *   'It is sunny in Paris.',
 * ]);
 * ```
 */
export class ScriptedChatModel implements ChatModel {
  /** The model's name (`options.modelName`, default `"scripted-model"`). */
  readonly modelName: string;
  readonly #strict: boolean;
  readonly #script: ScriptedReply[];
  readonly #requests: ChatRequest[] = [];
  #scripted: number;
  #answered = 0;
  #callIds = 0;

  constructor(script: ScriptedReply[], options: ScriptedChatModelOptions = {}) {
    this.modelName = options.modelName ?? 'scripted-model';
    this.#strict = options.strict ?? true;
    this.#script = [...script];
    this.#scripted = script.length;
  }

  /** Every request received, in order, rejected ones included; messages and tools are snapshots. */
  get requests(): readonly ChatRequest[] {
    return this.#requests;
  }

  /** How many scripted replies are left. */
  get remaining(): number {
    return this.#script.length;
  }

  /** Appends replies to the script. */
  enqueue(...replies: ScriptedReply[]): void {
    this.#script.push(...replies);
    this.#scripted += replies.length;
  }

  /**
   * Answers `request` with the next scripted reply. Cold: each subscription is one request
   * and takes one reply. Emits thinking chunks, text chunks, then tool-call deltas (per call:
   * index, id and name first, then the arguments in 2+ pieces), then one chunk with usage
   * and `finishReason`, and completes. Errors with `ModelError` (status 400) for a request
   * the real API would reject (strict mode), `ScriptExhaustedError` when the script is used
   * up, a `ModelError` for a scripted `error`, or an `AbortError` when `request.signal`
   * aborts. Unsubscribing cancels pending delays.
   */
  stream(request: ChatRequest): Observable<ChatChunk> {
    return defer(() => this.#answer(request));
  }

  #answer(request: ChatRequest): Observable<ChatChunk> {
    if (request.signal?.aborted) return throwError(() => abortError(request.signal));
    this.#requests.push(snapshot(request));
    const number = this.#requests.length;
    const problem = this.#strict
      ? validateChatRequest(toWireRequest(request, this.modelName))
      : undefined;
    if (problem) {
      return throwError(
        () =>
          new ModelError(`ScriptedChatModel rejected request #${number}: ${problem}`, {
            status: 400,
            retryable: false,
          }),
      );
    }
    const reply = this.#script.shift();
    if (reply === undefined) {
      const message = scriptExhaustedMessage(
        'ScriptedChatModel',
        number,
        this.#scripted,
        request.messages,
      );
      return throwError(() => new ScriptExhaustedError(message));
    }
    const turn = resolveReply(reply, request, this.#answered++);
    const plan = planTurn(turn, request.messages, () => `call_${++this.#callIds}`);
    const chunks$ = this.#play(plan);
    return request.signal ? chunks$.pipe(abortOn(request.signal)) : chunks$;
  }

  #play(plan: TurnPlan): Observable<ChatChunk> {
    const chunks = toChatChunks(plan);
    const { error, delayMs, chunkDelayMs } = plan;
    const played = error ? chunks.slice(0, error.afterChunks ?? 0) : chunks;
    return concat(
      delayMs > 0 ? timer(delayMs).pipe(ignoreElements()) : EMPTY,
      from(played).pipe(
        concatMap((chunk, index) =>
          index > 0 && chunkDelayMs > 0 ? timer(chunkDelayMs).pipe(map(() => chunk)) : of(chunk),
        ),
      ),
      error ? throwError(() => scriptedError(error.status, error.message)) : EMPTY,
    );
  }
}

function toChatChunks(plan: TurnPlan): ChatChunk[] {
  const chunks: ChatChunk[] = [
    ...plan.thinking.map((thinking) => ({ thinking })),
    ...plan.text.map((text) => ({ text })),
  ];
  plan.toolCalls.forEach((call, index) => {
    chunks.push({ toolCalls: [{ index, id: call.id, name: call.name }] });
    for (const args of call.fragments) chunks.push({ toolCalls: [{ index, arguments: args }] });
  });
  chunks.push({ usage: plan.usage, finishReason: plan.finishReason });
  return chunks;
}

function scriptedError(status: number | undefined, message: string | undefined): ModelError {
  const retryable = status === undefined || status === 429 || status >= 500;
  const text =
    message ??
    (status === undefined ? 'connection reset (scripted)' : `scripted HTTP ${status} error`);
  return new ModelError(`ScriptedChatModel: ${text}`, {
    ...(status !== undefined && { status }),
    retryable,
  });
}

function snapshot(request: ChatRequest): ChatRequest {
  const { signal, ...data } = request;
  return { ...structuredClone(data), ...(signal && { signal }) };
}

function abortError(signal: AbortSignal | undefined): Error {
  const error = new Error('ScriptedChatModel request was aborted.', { cause: signal?.reason });
  error.name = 'AbortError';
  return error;
}

function abortOn<T>(signal: AbortSignal): MonoTypeOperatorFunction<T> {
  return (source) =>
    new Observable<T>((subscriber) => {
      const onAbort = () => subscriber.error(abortError(signal));
      signal.addEventListener('abort', onAbort, { once: true });
      const subscription = source.subscribe({
        next: (value) => subscriber.next(value),
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
      return () => {
        signal.removeEventListener('abort', onAbort);
        subscription.unsubscribe();
      };
    });
}
