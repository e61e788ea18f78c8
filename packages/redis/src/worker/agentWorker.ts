import { hostname } from 'node:os';
import {
  type AgentEvent,
  type AgentHost,
  type Budget,
  type CallOptions,
  checkOptions,
  freezeMsg,
  InvalidArgumentError,
  isJsonObject,
  type Msg,
  userMsg,
} from '@rxagent/core';
import { ErrorReply } from 'redis';
import { backoffDelay } from '../connection/backoff.js';
import { RedisConnection } from '../connection/redisConnection.js';
import { entriesOfRange, entriesOfStreams, streamItems } from '../streamReply.js';
import {
  AGENT_WORKER_OPTION_KEYS,
  type AgentWorkerOptions,
  positive,
} from './agentWorkerOptions.js';
import { parseRunRequest, type RunRequest } from './runRequest.js';
import { ThreadLeases } from './threadLeases.js';
import { type WireControl, wireError } from './wireEvent.js';
import { type FlightEnd, WorkerFlight } from './workerFlight.js';
import { WorkerKeys } from './workerKeys.js';
import { workerScripts } from './workerScripts.js';

/**
 * Serves a queue of agent calls from Redis: reads run requests through the queue stream's
 * consumer group (XREADGROUP), runs each on `host` (one call per thread at a time across
 * every worker of the queue, in the order they were submitted), publishes every event of a
 * run to the run's own stream (each with a strictly increasing `seq`), and acknowledges the
 * request together with the run's last event. A run whose worker went silent for
 * `claimAfterMs` is claimed by another worker and run there (after `maxDeliveries`
 * deliveries it is dead-lettered instead). A worker that loses its hold on a run (Redis
 * unreachable for `claimAfterMs`, or another worker claimed it) stops it at once and leaves
 * it to the claimer. `stop()` takes no new runs and resolves once the running ones finished
 * or were given up: within `claimAfterMs` + `commandTimeoutMs` while Redis is unreachable.
 *
 * @example
 * ```ts
 * const host = new AgentHost({ create: () => new ReActAgent({ name: 'assistant', sysPrompt, model }), session: new RedisSession({ url }) });
 * const worker = new AgentWorker({ url, queue: 'agents', host });
 * await worker.start();
 * process.on('SIGTERM', () => void worker.stop());
 * ```
 */
export class AgentWorker {
  /** This worker's consumer name in the queue's group. */
  readonly consumer: string;
  readonly #keys: WorkerKeys;
  readonly #host: AgentHost;
  readonly #redis: RedisConnection;
  readonly #concurrency: number;
  readonly #claimAfterMs: number;
  readonly #leases: ThreadLeases;
  readonly #flights = new Map<string, WorkerFlight>();
  /** The last position this worker finished per thread: its cached agent is current then. */
  readonly #lastPosition = new Map<string, number>();
  #reader: RedisConnection | undefined;
  #subscriber: RedisConnection | undefined;
  #renewTimer: NodeJS.Timeout | undefined;
  #claimTimer: NodeJS.Timeout | undefined;
  #loop: Promise<void> | undefined;
  #stopping = false;
  #renewing = false;
  #claiming = false;
  #wakeSlot: (() => void) | undefined;
  #stopped: Promise<void> = Promise.resolve();

  constructor(options: AgentWorkerOptions) {
    checkOptions(options, AGENT_WORKER_OPTION_KEYS, 'AgentWorker');
    if (typeof options?.queue !== 'string' || options.queue === '') {
      throw new InvalidArgumentError('AgentWorker: options.queue must be a non-empty string.');
    }
    if (options.host === undefined || typeof options.host.stream !== 'function') {
      throw new InvalidArgumentError('AgentWorker: options.host must be an AgentHost.');
    }
    this.#concurrency = positive('concurrency', options.concurrency ?? 16);
    this.#claimAfterMs = positive('claimAfterMs', options.claimAfterMs ?? 30_000);
    const maxRunEvents = positive('maxRunEvents', options.maxRunEvents ?? 10_000);
    const runTtlSeconds = positive('runTtlSeconds', options.runTtlSeconds ?? 3_600);
    const maxDeliveries = positive('maxDeliveries', options.maxDeliveries ?? 5);
    this.#keys = new WorkerKeys(options.queue);
    this.#host = options.host;
    this.consumer =
      options.consumer ?? `${hostname()}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    this.#redis = new RedisConnection(options, 'AgentWorker');
    this.#leases = new ThreadLeases({
      redis: this.#redis,
      keys: this.#keys,
      consumer: this.consumer,
      claimAfterMs: this.#claimAfterMs,
      maxDeliveries,
      maxRunEvents,
      runTtlSeconds,
    });
  }

  /** Runs in flight on this worker now (waiting for their thread or running). */
  get activeRuns(): number {
    return this.#flights.size;
  }

  /**
   * Joins the queue's consumer group (creating the stream and group when missing) and starts
   * reading, claiming and renewing. Rejects with `StoreUnavailableError` when Redis cannot be
   * reached; calling it twice is an error.
   */
  async start(): Promise<void> {
    if (this.#loop !== undefined)
      throw new InvalidArgumentError('AgentWorker.start(): already started.');
    await this.#createGroup();
    for (const script of Object.values(workerScripts)) await script.load(this.#redis);
    this.#subscriber = this.#redis.duplicate('AgentWorker (interrupts)');
    const client = await this.#subscriber.ready('subscribing to interrupts');
    await client.subscribe(this.#keys.interrupts, (message) => this.#onInterrupt(message));
    this.#reader = this.#redis.duplicate('AgentWorker (reader)');
    const beat = Math.max(10, Math.floor(this.#claimAfterMs / 3));
    this.#renewTimer = setInterval(() => void this.#renewAll(), beat);
    this.#claimTimer = setInterval(
      () => void this.#claim(),
      Math.max(10, Math.floor(this.#claimAfterMs / 2)),
    );
    this.#loop = this.#readLoop();
  }

  /**
   * Takes no new runs, lets the running ones finish, then closes this worker's connections.
   * A run whose hold this worker loses meanwhile (Redis unreachable for `claimAfterMs`) is
   * given up, so while Redis is down this resolves within `claimAfterMs` +
   * `commandTimeoutMs`. Idempotent; resolves once every run it held has ended or was given up.
   */
  async stop(): Promise<void> {
    if (this.#stopping) return this.#stopped;
    this.#stopping = true;
    this.#stopped = this.#shutdown();
    return this.#stopped;
  }

  async #shutdown(): Promise<void> {
    this.#wakeSlot?.();
    // Runs still waiting for their thread go back to the queue now, for another worker.
    for (const flight of this.#flights.values()) {
      if (flight.holding) continue;
      flight.abandoned = true;
      const { entryId, fields } = flight.request;
      void this.#handOver(entryId, fields).then(() => flight.end());
    }
    clearInterval(this.#claimTimer);
    await this.#reader?.destroy();
    await this.#loop?.catch(() => {});
    await Promise.all([...this.#flights.values()].map((flight) => flight.released));
    clearInterval(this.#renewTimer);
    await Promise.all([this.#subscriber?.close(), this.#redis.close()]);
  }

  /** Creates the queue's stream and consumer group, unless they exist. */
  async #createGroup(): Promise<void> {
    try {
      await this.#redis.command(
        ['XGROUP', 'CREATE', this.#keys.queue, WorkerKeys.GROUP, '0', 'MKSTREAM'],
        'creating the consumer group',
      );
    } catch (error) {
      if (!(error instanceof ErrorReply && error.message.startsWith('BUSYGROUP'))) throw error;
    }
  }

  async #readLoop(): Promise<void> {
    let attempt = 0;
    while (!this.#stopping) {
      const free = this.#concurrency - this.#flights.size;
      if (free <= 0) {
        await new Promise<void>((resolve) => (this.#wakeSlot = resolve));
        continue;
      }
      try {
        const reply = await this.#reader?.command<unknown>(
          [
            'XREADGROUP',
            'GROUP',
            WorkerKeys.GROUP,
            this.consumer,
            'COUNT',
            String(free),
            'BLOCK',
            '1000',
            'STREAMS',
            this.#keys.queue,
            '>',
          ],
          'reading run requests',
          1_000,
        );
        attempt = 0;
        for (const item of streamItems(entriesOfStreams(reply)))
          this.#take(item.id, item.fields, false);
      } catch (error) {
        if (this.#stopping) return;
        // A Redis restarted without its data lost the group: make it again.
        if (error instanceof ErrorReply && error.message.startsWith('NOGROUP')) {
          await this.#createGroup().catch(() => {});
        }
        await delay(backoffDelay(attempt++));
      }
    }
  }

  /**
   * Claims runs whose worker went silent for `claimAfterMs` (one tick at a time), and
   * dead-letters those delivered `maxDeliveries` times.
   */
  async #claim(): Promise<void> {
    const free = this.#concurrency - this.#flights.size;
    if (this.#stopping || this.#claiming || free <= 0) return;
    this.#claiming = true;
    try {
      const reply = await this.#leases.claim(free);
      for (const item of streamItems(entriesOfRange(reply))) this.#take(item.id, item.fields, true);
    } catch {
      // Redis is down: the next tick tries again.
    } finally {
      this.#claiming = false;
    }
  }

  /** Starts handling one request entry (a malformed one is acknowledged and dropped). */
  #take(id: string, fields: Record<string, string>, claimed: boolean): void {
    if (this.#flights.has(id)) return;
    if (this.#stopping) {
      void this.#handOver(id, fields);
      return;
    }
    let request: RunRequest;
    try {
      request = parseRunRequest(id, fields);
    } catch {
      void this.#drop(id);
      return;
    }
    const flight = new WorkerFlight(request, this.#claimAfterMs);
    this.#flights.set(id, flight);
    void this.#handle(flight, claimed)
      .catch(() => {})
      .finally(() => {
        flight.end();
        if (this.#flights.get(id) === flight) this.#flights.delete(id);
        this.#wakeSlot?.();
        this.#wakeSlot = undefined;
      });
    // A run given up here leaves its slot at once: another worker, or this one, may claim it.
    void flight.released.then(() => {
      if (this.#flights.get(id) === flight && flight.abandoned && flight.holding) {
        this.#flights.delete(id);
        this.#wakeSlot?.();
        this.#wakeSlot = undefined;
      }
    });
  }

  async #handle(flight: WorkerFlight, claimed: boolean): Promise<void> {
    const { request } = flight;
    const acquired = await this.#acquire(flight);
    if (acquired === 'finished') {
      await this.#drop(request.entryId);
      return;
    }
    // Given up while waiting: stop() handed it over, or another worker claimed it.
    if (acquired === 'abandoned') return;
    flight.holding = true;
    flight.seq = claimed ? await this.#leases.nextSeq(request.runId) : 0;
    // Another worker advanced the thread since this one last ran it: its copy is stale, and
    // the session holds what the others stored. Drop the copy unsaved (a save would
    // overwrite their turns) and load the thread afresh.
    if (this.#lastPosition.get(request.threadId) !== request.position - 1) {
      await this.#host.evict(request.threadId, { save: false }).catch(() => {});
    }
    const last =
      request.kind === 'observe'
        ? await this.#observe(request)
        : ((claimed ? await this.#recover(flight) : undefined) ?? (await this.#call(flight)));
    if (flight.abandoned) {
      // This worker's copy of the thread is stale now: drop it unsaved, so it never
      // overwrites what the claimer stores, and load the thread afresh next time.
      this.#lastPosition.delete(request.threadId);
      await this.#host.evict(request.threadId, { save: false }).catch(() => {});
      return;
    }
    if (last === undefined) return;
    const finished = await this.#leases.finish(request, flight.seq++, last);
    if (finished) this.#lastPosition.set(request.threadId, request.position);
  }

  /** Waits until the request's thread is free for its position. */
  async #acquire(flight: WorkerFlight): Promise<'taken' | 'finished' | 'abandoned'> {
    const { request } = flight;
    let attempt = 0;
    for (;;) {
      if (flight.abandoned) return 'abandoned';
      try {
        const sentAt = performance.now();
        const taken = await this.#leases.acquire(request);
        if (taken === 'taken') flight.held(sentAt);
        if (taken !== 'busy') return flight.abandoned ? 'abandoned' : taken;
        attempt = Math.min(attempt + 1, 4);
      } catch {
        attempt++;
      }
      await delay(Math.min(200, 5 * 2 ** attempt));
    }
  }

  /** Runs a call on the host, publishing its events; resolves with its last event. */
  #call(flight: WorkerFlight): Promise<FlightEnd> {
    const { request } = flight;
    const { maxIters, budget, callContext } = request.options;
    const options: CallOptions = {
      ...(typeof maxIters === 'number' && { maxIters }),
      // Checked by the agent's call (checkBudget), like any call's budget.
      ...(isJsonObject(budget) && { budget: budget as Budget }),
      ...(isJsonObject(callContext) && { callContext }),
    };
    const ended = flight.run(
      this.#host.stream(request.threadId, request.input, options),
      (event) => void this.#append(flight, event),
    );
    void this.#checkInterrupt(request);
    return ended;
  }

  /**
   * The reply of a claimed request a durable host can recover (its call continued from its
   * checkpoint, or the reply the dead worker's call already stored); `undefined` when the
   * host is not durable or the request's call never started (then it runs as a new call).
   */
  async #recover(flight: WorkerFlight): Promise<FlightEnd> {
    const { request } = flight;
    const inputId = request.input[0]?.id;
    if (!this.#host.durable || typeof inputId !== 'string') return undefined;
    const end = await flight.run(this.#host.recover(request.threadId, inputId), () => {});
    // Abandoned: nothing more happens here (the caller checks `flight.abandoned`).
    return end;
  }

  /** Adds a request's messages to its thread's conversation. */
  async #observe(request: RunRequest): Promise<WireControl> {
    try {
      await this.#host.steer(request.threadId, request.input);
      return { type: 'observed' };
    } catch (error) {
      return { type: 'failed', error: wireError(error) };
    }
  }

  /** Appends one event to the run's stream, fenced by this worker's hold on the thread. */
  async #append(flight: WorkerFlight, event: AgentEvent | WireControl): Promise<void> {
    const { request } = flight;
    try {
      const appended = await this.#leases.append(request, flight.seq++, event);
      if (!appended) flight.abandon();
    } catch {
      // Redis is down: the event is lost for followers; the run's reply still goes with its finish.
    }
  }

  /**
   * Renews every held thread and keeps every in-flight request from looking silent, all at
   * once (one tick at a time: while Redis stalls, ticks do not pile up).
   */
  async #renewAll(): Promise<void> {
    if (this.#renewing) return;
    this.#renewing = true;
    try {
      await Promise.all([...this.#flights.values()].map((flight) => this.#renew(flight)));
    } finally {
      this.#renewing = false;
    }
  }

  /**
   * Renews one flight's hold: the request stays this worker's and, when it runs, its thread
   * too. A flight whose request or thread another worker took is given up at once.
   */
  async #renew(flight: WorkerFlight): Promise<void> {
    if (flight.abandoned) return;
    const { request } = flight;
    try {
      const sentAt = performance.now();
      const mine = await this.#leases.touch(request);
      if (!mine) {
        flight.abandon();
        return;
      }
      if (!flight.holding) return;
      const renewed = await this.#leases.renew(request);
      if (!renewed) flight.abandon();
      else {
        flight.held(sentAt);
        void this.#append(flight, { type: 'heartbeat' });
      }
    } catch {
      // Redis is down: try again on the next beat (the hold runs out after claimAfterMs).
    }
  }

  /** An interrupt announced on the queue's channel: `{ runId, message? }`. */
  #onInterrupt(text: string): void {
    let notice: { runId?: unknown; message?: Msg };
    try {
      notice = JSON.parse(text) as { runId?: unknown; message?: Msg };
    } catch {
      return;
    }
    for (const flight of this.#flights.values()) {
      if (flight.request.runId !== notice.runId) continue;
      this.#host.interrupt(flight.request.threadId, interruptMessage(notice.message));
    }
  }

  /** Applies an interrupt asked for before the run started here. */
  async #checkInterrupt(request: RunRequest): Promise<void> {
    try {
      const text = await this.#redis.command<string | null>(
        ['GET', this.#keys.interrupt(request.runId)],
        'reading an interrupt',
      );
      if (text === null) return;
      const notice = JSON.parse(text) as { message?: Msg };
      this.#host.interrupt(request.threadId, interruptMessage(notice.message));
    } catch {
      // No interrupt could be read: the run goes on.
    }
  }

  /** Gives a request this worker will not run back to the queue, for another worker. */
  async #handOver(id: string, fields: Record<string, string>): Promise<void> {
    try {
      await this.#leases.handOver(id, fields);
    } catch {
      // It stays pending and another worker claims it after claimAfterMs.
    }
  }

  /** Acknowledges and deletes an entry that needs no run (malformed, or already finished). */
  async #drop(id: string): Promise<void> {
    try {
      await this.#leases.drop(id);
    } catch {
      // It stays pending and is claimed (and dropped) again later.
    }
  }
}

/** A Msg given with an interrupt, when it is one. */
function interruptMessage(message: unknown): Msg | undefined {
  if (typeof message === 'string') return userMsg(message);
  if (typeof message === 'object' && message !== null && Array.isArray((message as Msg).content)) {
    return freezeMsg(message as Msg);
  }
  return undefined;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
