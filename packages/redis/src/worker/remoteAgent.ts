import {
  AgentBase,
  type AgentBaseOptions,
  type AgentEvent,
  type CallContext,
  type HookEvent,
  type InterruptContext,
  InvalidArgumentError,
  type JsonObject,
  type Msg,
  StoreUnavailableError,
} from '@rxagent/core';
import { Observable, type Subscription } from 'rxjs';
import { RedisConnection, type RedisConnectionOptions } from '../connection/redisConnection.js';
import { entriesOfStreams, streamItems } from '../streamReply.js';
import { FollowReaders } from './followReaders.js';
import { RemoteRunError, RemoteRunTimeoutError } from './remoteRunError.js';
import { type DecodedEvent, decodeEvent, replyOf, type WireError } from './wireEvent.js';
import { WorkerKeys } from './workerKeys.js';
import { workerScripts } from './workerScripts.js';

/** Options of `new RemoteAgent()`. */
export interface RemoteAgentOptions extends AgentBaseOptions, RedisConnectionOptions {
  /** The request stream the workers serve (`AgentWorker`'s `queue`). */
  readonly queue: string;
  /** The conversation this agent is a handle on (the workers' AgentHost thread). */
  readonly threadId: string;
  /**
   * How long a run may show no sign of life (no event, no worker heartbeat, or Redis not
   * answering) before the call fails with `RemoteRunTimeoutError`, in ms (default 60 000).
   * Workers send a heartbeat every third of their `claimAfterMs`, so keep it above that.
   */
  readonly timeoutMs?: number;
}

/** Events of the remote run that the local call makes itself, so they are not forwarded. */
const OWN_EVENTS = new Set(['preCall', 'postCall', 'reply', 'heartbeat', 'observed', 'failed']);
/** How long one blocking read waits, in ms. */
const BLOCK_MS = 1_000;
/** Interrupt notices outlive a run that has not started yet by this long, in seconds. */
const INTERRUPT_TTL_SECONDS = 3_600;

/**
 * An agent whose calls run on `AgentWorker`s over Redis: an `AgentBase` like any other
 * (`call`, `stream`, `reply`, `interrupt`, `observe`; in hubs, pipelines, handoffs and as a
 * tool). Each call submits a run request for `threadId` to `queue` and follows the run's
 * events until its reply; `stream()` emits the remote run's events (chunk events included,
 * each with its `seq` and `agent` set to this RemoteAgent) and ends with the reply.
 * `interrupt(message?)` reaches whichever worker runs the call; unsubscribing interrupts the
 * remote run and stops following it. `observe(msgs)` adds them to the thread's conversation.
 *
 * The remote events pass this agent's hooks read-only: a hook cannot change a remote step.
 */
export class RemoteAgent extends AgentBase {
  static override readonly optionKeys = [
    'url',
    'client',
    'commandTimeoutMs',
    'queue',
    'threadId',
    'timeoutMs',
  ];

  readonly threadId: string;
  readonly #keys: WorkerKeys;
  readonly #redis: RedisConnection;
  readonly #readers: FollowReaders;
  readonly #timeoutMs: number;
  #runId: string | undefined;
  #interruptMessage: Msg | undefined;

  constructor(options: RemoteAgentOptions) {
    super(options);
    if (typeof options.queue !== 'string' || options.queue === '') {
      throw new InvalidArgumentError('RemoteAgent: options.queue must be a non-empty string.');
    }
    if (typeof options.threadId !== 'string' || options.threadId === '') {
      throw new InvalidArgumentError('RemoteAgent: options.threadId must be a non-empty string.');
    }
    const timeout = options.timeoutMs ?? 60_000;
    if (!Number.isFinite(timeout) || timeout <= 0) {
      throw new InvalidArgumentError(
        `RemoteAgent: options.timeoutMs must be a positive number of ms (got ${String(timeout)}).`,
      );
    }
    this.threadId = options.threadId;
    this.#timeoutMs = timeout;
    this.#keys = new WorkerKeys(options.queue);
    this.#redis = new RedisConnection(options, `RemoteAgent "${options.name}"`);
    this.#readers = new FollowReaders(this.#redis, `RemoteAgent "${options.name}"`);
  }

  override interrupt(message?: Msg, source: InterruptContext['source'] = 'user'): void {
    this.#interruptMessage = message;
    super.interrupt(message, source);
  }

  /**
   * Follows a run of this thread from another process: its events from the start (those
   * still kept), then live, ending with its reply. Without `runId`, the run going on on the
   * thread now (completes at once when none is). Cold; errors like a call; unsubscribing
   * stops following and leaves the run going.
   */
  attach(runId?: string): Observable<AgentEvent> {
    return new Observable<AgentEvent>((subscriber) => {
      let inner: Subscription | undefined;
      let closed = false;
      const found = runId === undefined ? this.#currentRun() : Promise.resolve(runId);
      found.then(
        (id) => {
          if (closed) return;
          if (id === null) {
            subscriber.complete();
            return;
          }
          inner = this.#follow(id, undefined, (event) => subscriber.next(event)).subscribe({
            next: (msg) => subscriber.next(Object.freeze({ type: 'reply', msg })),
            error: (error: unknown) => subscriber.error(error),
            complete: () => subscriber.complete(),
          });
        },
        (error: unknown) => subscriber.error(error),
      );
      return () => {
        closed = true;
        inner?.unsubscribe();
      };
    });
  }

  /**
   * Closes this agent's Redis connections: the one it sends commands on (when it owns it)
   * and the ones it follows runs on (kept between calls, so a call opens none). A follow in
   * flight fails.
   */
  async close(): Promise<void> {
    await Promise.all([this.#readers.close(), this.#redis.close()]);
  }

  protected override doCall(msgs: Msg[], context: CallContext): Observable<Msg> {
    return new Observable<Msg>((subscriber) => {
      const runId = crypto.randomUUID();
      this.#runId = runId;
      // The JSON call options go to the worker: the step bound, the budget and who is asking.
      const { maxIters, budget, callContext } = context.options;
      const options: JsonObject = {};
      if (maxIters !== undefined) options['maxIters'] = maxIters;
      if (budget !== undefined) options['budget'] = budget as unknown as JsonObject;
      if (callContext !== undefined) options['callContext'] = callContext;
      let inner: Subscription | undefined;
      let closed = false;
      const onAbort = (): void => {
        void this.#sendInterrupt(runId, this.#interruptMessage);
        this.#interruptMessage = undefined;
      };
      context.signal.addEventListener('abort', onAbort, { once: true });
      const forward = (event: AgentEvent): void => {
        context.notify(readOnly(event as unknown as HookEvent)).subscribe({
          error: (error: unknown) => subscriber.error(error),
        });
      };
      this.#submit(runId, 'call', msgs, options).then(
        () => {
          if (!closed) inner = this.#follow(runId, context, forward).subscribe(subscriber);
        },
        (error: unknown) => subscriber.error(error),
      );
      return () => {
        closed = true;
        context.signal.removeEventListener('abort', onAbort);
        inner?.unsubscribe();
        if (this.#runId === runId) this.#runId = undefined;
      };
    });
  }

  protected override doObserve(msg: Msg): Observable<void> {
    return new Observable<void>((subscriber) => {
      const runId = crypto.randomUUID();
      let inner: Subscription | undefined;
      let closed = false;
      this.#submit(runId, 'observe', [msg], {}).then(
        () => {
          if (closed) return;
          inner = this.#follow(runId, undefined, () => {}).subscribe({
            error: (error: unknown) => subscriber.error(error),
            complete: () => subscriber.complete(),
          });
        },
        (error: unknown) => subscriber.error(error),
      );
      return () => {
        closed = true;
        inner?.unsubscribe();
      };
    });
  }

  async #submit(
    runId: string,
    kind: 'call' | 'observe',
    input: Msg[],
    options: object,
  ): Promise<void> {
    await workerScripts.submit.run(
      this.#redis,
      [this.#keys.queue, this.#keys.threadNext(this.threadId)],
      [runId, this.threadId, kind, JSON.stringify(input), JSON.stringify(options), '100000'],
      'submitting a run',
    );
  }

  async #sendInterrupt(runId: string, message: Msg | undefined): Promise<void> {
    const notice = JSON.stringify({ runId, ...(message !== undefined && { message }) });
    try {
      await this.#redis.command(
        ['SET', this.#keys.interrupt(runId), notice, 'EX', String(INTERRUPT_TTL_SECONDS)],
        'asking for an interrupt',
      );
      await this.#redis.command(
        ['PUBLISH', this.#keys.interrupts, notice],
        'announcing an interrupt',
      );
    } catch {
      // Redis is down: the run's follower times out with a clear error instead.
    }
  }

  async #currentRun(): Promise<string | null> {
    return this.#redis.command<string | null>(
      ['GET', this.#keys.threadRun(this.threadId)],
      'finding the running call',
    );
  }

  /**
   * Reads a run's stream from its start until its last event: each agent event (in `seq`
   * order, never one twice) to `onEvent`, then the reply as the one value (none for an
   * observe run). Errors with `RemoteRunError` for a failed run and `RemoteRunTimeoutError`
   * after `timeoutMs` without a sign of life. Unsubscribing stops reading.
   */
  #follow(
    runId: string,
    context: CallContext | undefined,
    onEvent: (event: AgentEvent) => void,
  ): Observable<Msg> {
    return new Observable<Msg>((subscriber) => {
      const reader = this.#readers.take();
      // A reader goes back for the next follow when it ends between reads and never failed.
      let reading = false;
      let healthy = true;
      let stopped = false;
      let lastId = '0-0';
      let lastSeq = -1;
      let lastSign = Date.now();
      let lastProblem: unknown;
      const key = this.#keys.run(runId);
      const loop = async (): Promise<void> => {
        while (!stopped) {
          if (Date.now() - lastSign > this.#timeoutMs) {
            subscriber.error(
              new RemoteRunTimeoutError(this.name, runId, this.#timeoutMs, { cause: lastProblem }),
            );
            return;
          }
          let reply: unknown;
          reading = true;
          try {
            reply = await reader.command<unknown>(
              ['XREAD', 'COUNT', '256', 'BLOCK', String(BLOCK_MS), 'STREAMS', key, lastId],
              `following run ${runId}`,
              BLOCK_MS,
            );
          } catch (error) {
            reading = false;
            if (stopped) return;
            healthy = false;
            lastProblem = error;
            if (!(error instanceof StoreUnavailableError)) {
              subscriber.error(error);
              return;
            }
            await new Promise((resolve) => setTimeout(resolve, 100));
            continue;
          }
          reading = false;
          for (const item of streamItems(entriesOfStreams(reply))) {
            lastId = item.id;
            lastSign = Date.now();
            const seq = Number(item.fields['seq']);
            if (!Number.isInteger(seq) || seq <= lastSeq) continue;
            lastSeq = seq;
            let event: DecodedEvent;
            try {
              event = decodeEvent(item.fields['event'] ?? '');
            } catch {
              continue;
            }
            if (event.type === 'failed') {
              subscriber.error(
                new RemoteRunError(this.name, runId, (event as { error: WireError }).error),
              );
              return;
            }
            if (event.type === 'observed') {
              subscriber.complete();
              return;
            }
            const msg = replyOf(event);
            if (msg !== undefined) {
              subscriber.next(msg);
              subscriber.complete();
              return;
            }
            if (OWN_EVENTS.has(event.type)) continue;
            if (context === undefined || context.listens(event.type as HookEvent['type'])) {
              onEvent(Object.freeze({ ...event, agent: this, seq }) as unknown as AgentEvent);
            }
          }
        }
      };
      void loop().catch((error: unknown) => subscriber.error(error));
      return () => {
        stopped = true;
        if (healthy && !reading) this.#readers.give(reader);
        else this.#readers.drop(reader);
      };
    });
  }
}

/** A remote event as a hook sees it: its controls refuse, since the step ran elsewhere. */
function readOnly(event: HookEvent): HookEvent {
  const refuse = (): never => {
    throw new TypeError(
      `A remote run's ${event.type} event is read-only here: its step ran on a worker.`,
    );
  };
  return Object.assign({ ...event }, { stopAgent: refuse, deny: refuse }) as HookEvent;
}
