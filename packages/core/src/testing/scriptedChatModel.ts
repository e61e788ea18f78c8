import { Observable, type Subscriber, type TeardownLogic } from 'rxjs';
import { ModelError, ScriptExhaustedError } from '../errors.js';
import type { ChatChunk, ChatModel, ChatRequest } from '../model/chatModel.js';
import { checkOptions } from '../options/checkOptions.js';
import { playTurn } from './playTurn.js';
import { resolveReply, type ScriptedReply, scriptExhaustedMessage } from './script.js';
import { snapshotRequest } from './snapshotRequest.js';
import { abortError } from './turnErrors.js';
import { planTurn } from './turnPlan.js';
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
    checkOptions(options, ['modelName', 'strict'], 'ScriptedChatModel');
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
    return new Observable<ChatChunk>((subscriber) => this.#answer(request, subscriber));
  }

  #answer(request: ChatRequest, subscriber: Subscriber<ChatChunk>): TeardownLogic {
    const { signal } = request;
    if (signal?.aborted) return subscriber.error(abortError(signal));
    this.#requests.push(snapshotRequest(request));
    const number = this.#requests.length;
    const problem = this.#strict
      ? validateChatRequest(toWireRequest(request, this.modelName))
      : undefined;
    if (problem) {
      return subscriber.error(
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
      return subscriber.error(new ScriptExhaustedError(message));
    }
    const turn = resolveReply(reply, request, this.#answered++);
    const plan = planTurn(turn, request.messages, () => `call_${++this.#callIds}`);
    return playTurn(plan, subscriber, signal);
  }
}
