import type { AgentEvent } from '@rxagent/core';
import type { RedisConnection } from '../connection/redisConnection.js';
import { entriesOfRange, streamItems } from '../streamReply.js';
import type { RunRequest } from './runRequest.js';
import { encodeEvent, type WireControl } from './wireEvent.js';
import { WorkerKeys } from './workerKeys.js';
import { workerScripts } from './workerScripts.js';

/** What `ThreadLeases` needs to know of its worker. */
export interface ThreadLeaseOptions {
  readonly redis: RedisConnection;
  readonly keys: WorkerKeys;
  /** The worker's consumer name: the holder of its threads, and the fence of its writes. */
  readonly consumer: string;
  readonly claimAfterMs: number;
  /** Deliveries of a request after which a claim dead-letters it instead. */
  readonly maxDeliveries: number;
  readonly maxRunEvents: number;
  readonly runTtlSeconds: number;
}

/** How taking a request's thread went. */
export type Acquired = 'taken' | 'finished' | 'busy';

/**
 * The Redis side of one worker: its hold on threads (a lock per thread naming the holder,
 * renewed while it runs), the run streams it appends to (every append fenced by that hold,
 * so a worker that lost a thread can no longer publish on it), and the queue entries it
 * finishes, hands over or drops. Each method is one script or command; retrying and giving up
 * are the worker's.
 */
export class ThreadLeases {
  readonly #redis: RedisConnection;
  readonly #keys: WorkerKeys;
  readonly #consumer: string;
  readonly #claimAfterMs: number;
  readonly #maxDeliveries: number;
  readonly #maxRunEvents: number;
  readonly #runTtlSeconds: number;

  constructor(options: ThreadLeaseOptions) {
    this.#redis = options.redis;
    this.#keys = options.keys;
    this.#consumer = options.consumer;
    this.#claimAfterMs = options.claimAfterMs;
    this.#maxDeliveries = options.maxDeliveries;
    this.#maxRunEvents = options.maxRunEvents;
    this.#runTtlSeconds = options.runTtlSeconds;
  }

  /**
   * Takes the request's thread when its position is next and no live worker holds it
   * (`'taken'`); `'finished'` when that position already finished (a duplicate delivery),
   * `'busy'` when the thread must be waited for.
   */
  async acquire(request: RunRequest): Promise<Acquired> {
    const { threadId } = request;
    const taken = await workerScripts.acquire.run<number>(
      this.#redis,
      [
        this.#keys.threadDone(threadId),
        this.#keys.threadLock(threadId),
        this.#keys.threadRun(threadId),
        this.#keys.threadDead(threadId),
      ],
      [String(request.position), this.#consumer, String(this.#claimAfterMs), request.runId],
      'taking a thread',
    );
    return taken === 1 ? 'taken' : taken === -1 ? 'finished' : 'busy';
  }

  /**
   * Appends one event to the run's stream as number `seq`, if this worker still holds the
   * thread; `false` when it does not (another worker took the run over).
   */
  async append(
    request: RunRequest,
    seq: number,
    event: AgentEvent | WireControl,
  ): Promise<boolean> {
    const appended = await workerScripts.append.run<number>(
      this.#redis,
      [this.#keys.run(request.runId), this.#keys.threadLock(request.threadId)],
      [this.#consumer, String(seq), encodeEvent(event), String(this.#maxRunEvents), '0'],
      'publishing a run event',
    );
    return appended !== 0;
  }

  /**
   * Ends a run at once: its last event as number `seq`, the thread's position marked done,
   * the thread released and the request acknowledged. `false` when this worker no longer
   * held the thread (nothing was written).
   */
  async finish(request: RunRequest, seq: number, last: AgentEvent | WireControl): Promise<boolean> {
    const finished = await workerScripts.finish.run<number>(
      this.#redis,
      [
        this.#keys.threadDone(request.threadId),
        this.#keys.threadLock(request.threadId),
        this.#keys.threadRun(request.threadId),
        this.#keys.queue,
        this.#keys.run(request.runId),
      ],
      [
        this.#consumer,
        String(request.position),
        WorkerKeys.GROUP,
        request.entryId,
        String(seq),
        encodeEvent(last),
        String(this.#maxRunEvents),
        String(this.#runTtlSeconds),
      ],
      'finishing a run',
    );
    return finished === 1;
  }

  /** The seq after the last event of a run's stream (a claimed run goes on from there). */
  async nextSeq(runId: string): Promise<number> {
    const reply = await this.#redis.command<unknown>(
      ['XREVRANGE', this.#keys.run(runId), '+', '-', 'COUNT', '1'],
      'reading a run stream',
    );
    const seq = Number(streamItems(entriesOfRange(reply))[0]?.fields['seq']);
    return Number.isInteger(seq) ? seq + 1 : 0;
  }

  /**
   * Keeps the request from looking silent to other workers' claims (no delivery counted);
   * `false` when it is no longer this worker's (another worker claimed it, or it ended).
   */
  async touch(request: RunRequest): Promise<boolean> {
    const touched = await workerScripts.touch.run<number>(
      this.#redis,
      [this.#keys.queue],
      [WorkerKeys.GROUP, this.#consumer, request.entryId],
      'renewing a run',
    );
    return touched === 1;
  }

  /**
   * Claims up to `count` requests whose worker went silent for `claimAfterMs`, each one more
   * delivery; a request already delivered `maxDeliveries` times is dead-lettered instead
   * (see the CLAIM script). Resolves with the claimed entries.
   */
  async claim(count: number): Promise<unknown> {
    return workerScripts.claim.run<unknown>(
      this.#redis,
      [this.#keys.queue, this.#keys.dead],
      [
        WorkerKeys.GROUP,
        this.#consumer,
        String(this.#claimAfterMs),
        String(count),
        String(this.#maxDeliveries),
        String(this.#runTtlSeconds),
        String(this.#maxRunEvents),
      ],
      'claiming silent runs',
    );
  }

  /** Renews this worker's hold on the request's thread; `false` when it lost it. */
  async renew(request: RunRequest): Promise<boolean> {
    const renewed = await workerScripts.renew.run<number>(
      this.#redis,
      [this.#keys.threadLock(request.threadId), this.#keys.threadRun(request.threadId)],
      [this.#consumer, String(this.#claimAfterMs)],
      'renewing a thread',
    );
    return renewed !== 0;
  }

  /** Gives a request back to the queue unchanged, for another worker. */
  async handOver(id: string, fields: Record<string, string>): Promise<void> {
    await workerScripts.handOver.run(
      this.#redis,
      [this.#keys.queue],
      [WorkerKeys.GROUP, id, ...Object.entries(fields).flat()],
      'handing a request over',
    );
  }

  /** Acknowledges and deletes an entry that needs no run (malformed, or already finished). */
  async drop(id: string): Promise<void> {
    await this.#redis.command(
      ['XACK', this.#keys.queue, WorkerKeys.GROUP, id],
      'acknowledging a request',
    );
    await this.#redis.command(['XDEL', this.#keys.queue, id], 'deleting a request');
  }
}
