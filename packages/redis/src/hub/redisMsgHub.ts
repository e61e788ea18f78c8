import { randomUUID } from 'node:crypto';
import {
  type AgentBase,
  checkOptions,
  InvalidArgumentError,
  type Msg,
  optionNames,
} from '@rxagent/core';
import {
  concatMap,
  defer,
  endWith,
  from,
  ignoreElements,
  lastValueFrom,
  type Observable,
  Subject,
} from 'rxjs';
import { type RedisClient, RedisConnection } from '../connection/redisConnection.js';
import { hubPublisher } from './hubPublisher.js';
import { toArray, toMsgs, uniqueAgents } from './participants.js';
import type { RedisHubEvent, RedisMsgHubOptions } from './redisMsgHubOptions.js';
import { entryFields, type StreamEntry } from './streamEntry.js';
import { StreamReader } from './streamReader.js';

/**
 * A MsgHub whose participants live in several processes: each process creates one with its
 * own agents and the same `topic`. Every reply of a local participant is appended (XADD) to
 * the Redis Stream `topic` before its caller receives it; every process delivers each entry
 * of the stream to its local participants' `observe()`, in stream order, once each, never an
 * agent's own reply back to it (matched by name). `broadcast(msg)` appends a message every
 * participant observes.
 *
 * Each process stores the id of the last entry it delivered under its `consumer` name, so
 * after a reconnect or a restart it resumes after that entry: no duplicate, no gap. (A
 * process killed between a participant's `observe` and the position write gets that one
 * entry again on restart; it has lost its in-memory agent state with the crash anyway.)
 *
 * A local participant publishes its reply from a `postCall` hook that runs after its other
 * postCall hooks. While Redis is down, the hub retries its reads with backoff (50 ms to 1 s)
 * and reports each failure on `events`; a participant's reply fails its call with
 * `StoreUnavailableError` after the bounded wait. `exit()` stops delivery; `close()` also releases the connections.
 *
 * @example
 * ```ts
 * // In the planner's process (the critic's process does the same with `participants: [critic]`):
 * const hub = new RedisMsgHub({ url, topic: 'offsite', participants: [planner] });
 * await lastValueFrom(hub.enter());
 * await lastValueFrom(planner.call(userMsg('Plan it.'))); // the critic observes the plan
 * ```
 */
export class RedisMsgHub {
  /** This hub's id (it names the publishing hook each local participant gets). */
  readonly id: string = randomUUID();
  readonly topic: string;
  readonly consumer: string;
  /**
   * Hot: what the hub delivers and the errors it meets while delivering. Never errors;
   * completes on `close()`.
   */
  readonly events: Observable<RedisHubEvent>;
  readonly #events = new Subject<RedisHubEvent>();
  readonly #announcement: Msg | readonly Msg[] | undefined;
  readonly #startAt: 'beginning' | 'end';
  readonly #blockMs: number;
  readonly #redis: RedisConnection;
  readonly #positions: string;
  #participants: AgentBase[];
  /** Removes the publishing hook of each routed participant. */
  readonly #routes = new Map<AgentBase, () => void>();
  #reader: StreamReader | undefined;
  #lastId: string | undefined;
  #stopping: Promise<string> | undefined;
  #starting: Promise<void> | undefined;
  #entered = false;

  constructor(options: RedisMsgHubOptions) {
    if (typeof options !== 'object' || options === null) {
      throw new InvalidArgumentError(
        'new RedisMsgHub(options): options must be an object with topic and participants.',
      );
    }
    checkOptions(
      options,
      optionNames<RedisMsgHubOptions>({
        url: true,
        client: true,
        commandTimeoutMs: true,
        topic: true,
        participants: true,
        announcement: true,
        consumer: true,
        startAt: true,
        blockMs: true,
      }),
      'RedisMsgHub',
    );
    if (typeof options.topic !== 'string' || options.topic === '') {
      throw new InvalidArgumentError(
        'new RedisMsgHub(options): topic must be a non-empty string (the Redis Stream key).',
      );
    }
    const blockMs = options.blockMs ?? 1_000;
    if (!Number.isInteger(blockMs) || blockMs <= 0) {
      throw new InvalidArgumentError(
        `new RedisMsgHub(options): blockMs must be a positive whole number (got ${String(blockMs)}).`,
      );
    }
    this.topic = options.topic;
    this.#participants = uniqueAgents(options.participants, 'new RedisMsgHub()', []);
    const consumer =
      options.consumer ??
      this.#participants
        .map((agent) => agent.name)
        .sort()
        .join(',');
    if (typeof consumer !== 'string' || consumer === '') {
      throw new InvalidArgumentError(
        'new RedisMsgHub(options): consumer must be a non-empty string (or give participants to name it after).',
      );
    }
    this.consumer = consumer;
    this.#announcement = options.announcement;
    const startAt = options.startAt ?? 'beginning';
    if (startAt !== 'beginning' && startAt !== 'end') {
      throw new InvalidArgumentError(
        `new RedisMsgHub(options): startAt must be 'beginning' or 'end' (got ${JSON.stringify(startAt)}).`,
      );
    }
    this.#startAt = startAt;
    this.#blockMs = blockMs;
    this.#positions = `${this.topic}:consumers`;
    this.#redis = new RedisConnection(options, `RedisMsgHub "${this.topic}"`);
    this.events = this.#events.asObservable();
  }

  /** This process's participants (a copy). */
  get participants(): readonly AgentBase[] {
    return [...this.#participants];
  }

  /** The id of the last entry delivered to this process's participants (or where it starts). */
  get lastDeliveredId(): string | undefined {
    return this.#reader?.lastId ?? this.#lastId;
  }

  /**
   * Enters the hub. Cold: on subscription it loads this consumer's stored position (or
   * starts at `startAt`), routes every local participant's replies to the topic, starts
   * delivering entries from other agents, appends the announcement, emits one `undefined`
   * and completes. Errors with `StoreUnavailableError` when Redis cannot be reached (then
   * nothing changed). Entering an entered hub only appends the announcement again.
   * Unsubscribing does not undo an enter already under way: call `exit()` to leave.
   */
  enter(): Observable<void> {
    return defer(async () => {
      if (!this.#entered) await this.#startOnce();
      if (this.#announcement !== undefined) await lastValueFrom(this.broadcast(this.#announcement));
    }).pipe(ignoreElements(), endWith(undefined));
  }

  /** Adds local participants (present ones are ignored); their replies go to the topic at once when entered. */
  add(agents: AgentBase | readonly AgentBase[]): void {
    const added = uniqueAgents(
      toArray(agents),
      `RedisMsgHub "${this.topic}".add()`,
      this.#participants,
    );
    this.#participants.push(...added);
    if (this.#entered) for (const agent of added) this.#route(agent);
  }

  /** Removes local participants: they no longer observe the topic nor append to it. Absent ones are ignored. */
  delete(agents: AgentBase | readonly AgentBase[]): void {
    for (const agent of toArray(agents)) {
      if (!this.#participants.includes(agent)) continue;
      this.#participants = this.#participants.filter((other) => other !== agent);
      this.#routes.get(agent)?.();
      this.#routes.delete(agent);
    }
  }

  /**
   * Appends `msg` (or each of several, in order) to the topic: every participant of every
   * process observes it. Cold; emits one `undefined` once Redis has stored it, then
   * completes; errors with `InvalidArgumentError` for a non-Msg or `StoreUnavailableError`.
   * Unsubscribing stops appending the messages not yet sent; one already sent stays.
   */
  broadcast(msg: Msg | readonly Msg[]): Observable<void> {
    return defer(() => from(toMsgs(msg, `RedisMsgHub "${this.topic}".broadcast()`))).pipe(
      concatMap((one) => this.#append('', one)),
      ignoreElements(),
      endWith(undefined),
    );
  }

  /** Leaves the hub: replies are no longer appended and delivery stops. Idempotent. */
  exit(): void {
    void this.#stop();
  }

  /** Exits, waits for an in-flight delivery to end and releases the connections; `events` completes. */
  async close(): Promise<void> {
    await this.#stop();
    await this.#redis.close();
    this.#events.complete();
  }

  /** The client this hub sends commands with, connected. */
  client(): Promise<RedisClient> {
    return this.#redis.ready('connecting');
  }

  // Two enter() subscriptions at once must not start two readers.
  #startOnce(): Promise<void> {
    if (this.#starting === undefined) {
      const starting = this.#start().finally(() => {
        if (this.#starting === starting) this.#starting = undefined;
      });
      this.#starting = starting;
    }
    return this.#starting;
  }

  async #start(): Promise<void> {
    // A reader stopped by exit() may still be finishing a delivery: resume after it.
    if (this.#stopping !== undefined) this.#lastId = await this.#stopping;
    this.#stopping = undefined;
    const from = this.#lastId ?? (await this.#storedPosition());
    const reader = this.#redis.duplicate(`RedisMsgHub "${this.topic}" reader`);
    this.#entered = true;
    for (const agent of this.#participants) this.#route(agent);
    this.#reader = new StreamReader(reader, this.topic, from, this.#blockMs, {
      deliver: (entry) => this.#deliver(entry),
      delivered: (entry, to) =>
        this.#events.next({
          type: 'delivered',
          id: entry.id,
          from: entry.from,
          msg: entry.msg,
          to,
        }),
      persist: (id) => this.#persist(id),
      report: (error) => this.#events.next({ type: 'error', error }),
    });
  }

  #stop(): Promise<unknown> {
    this.#entered = false;
    for (const remove of this.#routes.values()) remove();
    this.#routes.clear();
    const reader = this.#reader;
    this.#reader = undefined;
    if (reader === undefined) return this.#stopping ?? Promise.resolve();
    this.#stopping = reader.stop().then(() => {
      this.#lastId = reader.lastId;
      return reader.lastId;
    });
    return this.#stopping;
  }

  async #storedPosition(): Promise<string> {
    const stored = await this.#redis.command<string | null>(
      ['HGET', this.#positions, this.consumer],
      `loading the position of consumer ${JSON.stringify(this.consumer)}`,
    );
    if (typeof stored === 'string') return stored;
    let start = '0-0';
    if (this.#startAt === 'end') {
      const last = await this.#redis.command<unknown[]>(
        ['XREVRANGE', this.topic, '+', '-', 'COUNT', '1'],
        'finding the end of the topic',
      );
      const id: unknown = Array.isArray(last[0]) ? last[0][0] : undefined;
      if (typeof id === 'string') start = id;
    }
    await this.#persist(start);
    return start;
  }

  #route(agent: AgentBase): void {
    this.#routes.get(agent)?.();
    const hook = hubPublisher(this.id, (msg) => this.#append(agent.name, msg));
    this.#routes.set(agent, agent.addHook(hook));
  }

  #append(from: string, msg: Msg): Promise<unknown> {
    return this.#redis.command(
      ['XADD', this.topic, '*', ...entryFields(from, msg)],
      `appending to hub topic ${JSON.stringify(this.topic)}`,
    );
  }

  async #persist(id: string): Promise<void> {
    await this.#redis.command(
      ['HSET', this.#positions, this.consumer, id],
      `saving the position of consumer ${JSON.stringify(this.consumer)}`,
    );
  }

  /** Every local participant but the sender observes the entry, one after another; failures are reported, not retried. */
  async #deliver(entry: StreamEntry): Promise<readonly string[]> {
    const to: string[] = [];
    for (const agent of [...this.#participants]) {
      if (agent.name === entry.from) continue;
      try {
        await lastValueFrom(agent.observe(entry.msg), { defaultValue: undefined });
        to.push(agent.name);
      } catch (error) {
        this.#events.next({ type: 'error', error });
      }
    }
    return to;
  }
}
