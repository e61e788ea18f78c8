import {
  type ChatChunk,
  type ChatModel,
  type ChatRequest,
  checkOptions,
  InvalidArgumentError,
  type JsonObject,
  ModelError,
} from '@rxagent/core';
import { asyncScheduler, Observable, type Subscriber, type Subscription } from 'rxjs';
import { quoteBody } from '../openai/quoteBody.js';
import {
  CircuitBreaker,
  type CircuitOptions,
  type CircuitPass,
  type CircuitState,
} from './circuitBreaker.js';
import { isOutage } from './isOutage.js';

/** Options of `FallbackChatModel`. */
export interface FallbackChatModelOptions {
  /** The per-model circuit breaker (default: 3 consecutive failures, 30 s cooldown). */
  readonly circuit?: CircuitOptions;
}

/** Why a fallback chain passed a model over, as recorded in the reply's `metadata.fallback`. */
export interface FallbackSkip {
  readonly model: string;
  /** `failed`: its request failed with an outage; `circuit-open`: it was not asked. */
  readonly reason: 'failed' | 'circuit-open';
  /** The failure's message (at most a few hundred characters). */
  readonly error?: string;
  /** The failure's HTTP status, when it had one. */
  readonly status?: number;
}

/** One model of a chain and its circuit, as `FallbackChatModel.status()` reports it. */
export interface FallbackModelStatus {
  readonly model: string;
  readonly state: CircuitState;
  readonly failures: number;
}

/**
 * A `ChatModel` that sends each request to the first available model of a chain: when a
 * request fails before its first chunk with an outage (429, 5xx, 529, a refused or reset
 * connection, a timeout: see `isOutage`; after the model's own retries), the next model gets
 * it. Never after a chunk arrived (the reply would mix two models), and never for another
 * error (a 400 is the request's fault, and every model would reject it).
 *
 * Each model has a circuit breaker: after `circuit.failures` consecutive outages the model is
 * skipped for `circuit.cooldownMs`, then one trial request goes to it (success closes the
 * circuit). The first chunk of a reply names the model that answered (`ChatChunk.model`, so
 * the reply's `metadata.model`, the `postReasoning` event's `model` and the OTel chat span's
 * `gen_ai.response.model`) and, when models were passed over, `metadata.fallback`: a
 * `FallbackSkip` per model, in order. `modelName` is the primary's name.
 *
 * @example
 * ```ts
 * const model = new FallbackChatModel([
 *   new AnthropicChatModel({ model: 'claude-sonnet-4-6' }),
 *   new OpenAIChatModel({ model: 'gpt-4o-mini' }),
 * ]);
 * ```
 */
export class FallbackChatModel implements ChatModel {
  readonly modelName: string;
  /** The chain, primary first. */
  readonly models: readonly ChatModel[];
  readonly #circuits: readonly CircuitBreaker[];

  /** @throws InvalidArgumentError for an empty chain or a circuit setting that is not a positive number. */
  constructor(models: readonly ChatModel[], options: FallbackChatModelOptions = {}) {
    checkOptions(options, ['circuit'], 'FallbackChatModel');
    checkOptions(options.circuit, ['failures', 'cooldownMs'], 'FallbackChatModel circuit');
    if (!Array.isArray(models) || models.length === 0) {
      throw new InvalidArgumentError(
        'FallbackChatModel needs at least one model: pass [primary, ...fallbacks].',
      );
    }
    const failures = options.circuit?.failures ?? 3;
    const cooldownMs = options.circuit?.cooldownMs ?? 30_000;
    if (!Number.isInteger(failures) || failures < 1) {
      throw new InvalidArgumentError(
        `FallbackChatModel: circuit.failures must be a positive integer, got ${String(failures)}.`,
      );
    }
    if (!Number.isFinite(cooldownMs) || cooldownMs < 0) {
      throw new InvalidArgumentError(
        `FallbackChatModel: circuit.cooldownMs must be a non-negative number, got ${String(cooldownMs)}.`,
      );
    }
    this.models = [...models];
    this.modelName = models[0]!.modelName;
    // The async scheduler's clock: real time, or virtual time under a TestScheduler.
    const now = (): number => asyncScheduler.now();
    this.#circuits = models.map(() => new CircuitBreaker(failures, cooldownMs, now));
  }

  /** Each model's circuit now, in chain order. */
  status(): FallbackModelStatus[] {
    return this.models.map((model, index) => {
      const circuit = this.#circuits[index]!;
      return { model: model.modelName, state: circuit.state, failures: circuit.failures };
    });
  }

  /**
   * Cold: each subscription sends the request to the first available model and emits that
   * model's chunks (the first one extended with `model` and, after a fallback, `metadata`),
   * then completes. Errors with the model's own error when it is not an outage or came after
   * a chunk; with a `ModelError` listing every model's failure when all failed or were
   * skipped (retryable when the last failure was). Unsubscribing cancels the running request.
   */
  stream(request: ChatRequest): Observable<ChatChunk> {
    return new Observable<ChatChunk>((subscriber) => {
      const run = new FallbackRun(this.models, this.#circuits, request, subscriber);
      run.next(0);
      return () => run.stop();
    });
  }
}

/** One request walking the chain. */
class FallbackRun {
  readonly #skips: FallbackSkip[] = [];
  #current: Subscription | undefined;
  /** The circuit of the request waiting for its first chunk, and how it got through. */
  #circuit: CircuitBreaker | undefined;
  #pass: CircuitPass = 'pass';
  #lastError: unknown;
  #stopped = false;

  constructor(
    readonly models: readonly ChatModel[],
    readonly circuits: readonly CircuitBreaker[],
    readonly request: ChatRequest,
    readonly subscriber: Subscriber<ChatChunk>,
  ) {}

  /** Sends the request to the first available model from `from` on. */
  next(from: number): void {
    for (let index = from; index < this.models.length; index++) {
      const circuit = this.circuits[index]!;
      const model = this.models[index]!;
      const pass = circuit.tryAcquire();
      if (pass === undefined) {
        this.#skips.push({ model: model.modelName, reason: 'circuit-open' });
        continue;
      }
      this.#pass = pass;
      this.#send(model, circuit, index);
      return;
    }
    this.subscriber.error(this.#exhausted());
  }

  stop(): void {
    this.#stopped = true;
    this.#circuit?.released(this.#pass);
    this.#circuit = undefined;
    this.#current?.unsubscribe();
  }

  #send(model: ChatModel, circuit: CircuitBreaker, index: number): void {
    this.#circuit = circuit;
    const pass = this.#pass;
    let first = true;
    let stream: Observable<ChatChunk>;
    try {
      stream = model.stream(this.request);
    } catch (error) {
      this.#failed(model, circuit, pass, index, error);
      return;
    }
    const subscription = stream.subscribe({
      next: (chunk) => {
        if (first) {
          first = false;
          circuit.succeeded(pass);
          this.#circuit = undefined;
          this.subscriber.next(this.#named(chunk, model));
        } else this.subscriber.next(chunk);
      },
      error: (error: unknown) => {
        if (first) this.#failed(model, circuit, pass, index, error);
        else this.subscriber.error(error);
      },
      complete: () => {
        if (first) {
          circuit.succeeded(pass);
          this.#circuit = undefined;
          this.subscriber.next(this.#named({}, model));
        }
        this.subscriber.complete();
      },
    });
    // A model that failed synchronously has already moved the run on.
    if (this.#stopped) subscription.unsubscribe();
    else if (this.#circuit === circuit || !first) this.#current = subscription;
  }

  #failed(
    model: ChatModel,
    circuit: CircuitBreaker,
    pass: CircuitPass,
    index: number,
    error: unknown,
  ): void {
    this.#circuit = undefined;
    if (!isOutage(error) || this.request.signal?.aborted) {
      circuit.released(pass);
      this.subscriber.error(error);
      return;
    }
    circuit.failed(pass);
    this.#lastError = error;
    const status = error instanceof ModelError ? error.status : undefined;
    this.#skips.push({
      model: model.modelName,
      reason: 'failed',
      error: quoteBody(error instanceof Error ? error.message : String(error), 300),
      ...(status !== undefined && { status }),
    });
    this.next(index + 1);
  }

  #named(chunk: ChatChunk, model: ChatModel): ChatChunk {
    if (this.#skips.length === 0) return { ...chunk, model: model.modelName };
    const fallback = this.#skips.map((skip) => ({ ...skip }) as JsonObject);
    return { ...chunk, model: model.modelName, metadata: { ...chunk.metadata, fallback } };
  }

  #exhausted(): ModelError {
    const last = this.#lastError;
    const tried = this.#skips
      .map((skip) =>
        skip.reason === 'failed' ? `${skip.model}: ${skip.error}` : `${skip.model}: circuit open`,
      )
      .join('; ');
    const retryable = last === undefined || !(last instanceof ModelError) || last.retryable;
    const status = last instanceof ModelError ? last.status : undefined;
    return new ModelError(
      `Every model of the fallback chain is unavailable (${tried}): try again later or add a fallback model.`,
      { retryable, ...(status !== undefined && { status }) },
      last === undefined ? undefined : { cause: last },
    );
  }
}
