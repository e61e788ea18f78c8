import {
  AgentBase,
  checkOptions,
  InvalidArgumentError,
  isJsonObject,
  type Msg,
} from '@rxagent/core';
import {
  type RedisClient,
  RedisConnection,
  type RedisConnectionOptions,
} from '../connection/redisConnection.js';

/** Options of `new RedisInterrupts()`. */
export interface RedisInterruptsOptions extends RedisConnectionOptions {
  /** Prepended to each key to make its pub/sub channel (default `"rxagent:interrupt:"`). */
  readonly prefix?: string;
}

/** Removes one attachment; resolves once this process no longer listens for it. */
export type Detach = () => Promise<void>;

/**
 * Interrupts across processes over Redis pub/sub. A process that runs an agent attaches it
 * under a key (a conversation or run id); any process, holding only the key, calls
 * `interrupt(key, message?)`, and the agent's `interrupt(message)` runs in its own process a
 * network round trip later: its `CallContext.signal` aborts, so an in-flight model request
 * or tool stops within milliseconds. Like `agent.interrupt()`, an interrupt that arrives
 * while the agent is idle is forgotten when its next call starts.
 *
 * Pub/sub is fire-and-forget: an interrupt sent while the agent's process is disconnected
 * from Redis is not replayed (`interrupt()` resolves with how many processes received it).
 * Subscriptions are renewed automatically after a reconnect.
 *
 * @example
 * ```ts
 * // worker process
 * const interrupts = new RedisInterrupts({ url });
 * const detach = await interrupts.attach(agent, 'run-42');
 * // any other process
 * await new RedisInterrupts({ url }).interrupt('run-42', userMsg('Stop, the budget changed.'));
 * ```
 */
export class RedisInterrupts {
  /** The channel prefix. */
  readonly prefix: string;
  readonly #publisher: RedisConnection;
  #subscriber: RedisConnection | undefined;
  readonly #attached = new Map<string, Set<AgentBase>>();
  readonly #listeners = new Map<string, (message: string) => void>();
  readonly #pending = new Map<string, Promise<void>>();

  constructor(options: RedisInterruptsOptions = {}) {
    checkOptions(options, ['url', 'client', 'commandTimeoutMs', 'prefix'], 'RedisInterrupts');
    const prefix = options.prefix ?? 'rxagent:interrupt:';
    if (typeof prefix !== 'string') {
      throw new InvalidArgumentError('new RedisInterrupts(options): prefix must be a string.');
    }
    this.prefix = prefix;
    this.#publisher = new RedisConnection(options, 'RedisInterrupts');
  }

  /**
   * Lets `interrupt(key)` from any process interrupt `agent`. Resolves once the subscription
   * is active (an interrupt sent after that reaches the agent) with a function that detaches
   * it. Several agents may share a key; all of them are interrupted. Rejects with
   * `InvalidArgumentError` for a bad agent or key, `StoreUnavailableError` when Redis cannot
   * be reached within the bounded wait.
   */
  async attach(agent: AgentBase, key: string): Promise<Detach> {
    if (!(agent instanceof AgentBase)) {
      throw new InvalidArgumentError(
        'RedisInterrupts.attach(agent, key): agent must be an AgentBase.',
      );
    }
    assertKey(key, 'RedisInterrupts.attach()');
    const channel = this.prefix + key;
    let agents = this.#attached.get(channel);
    if (agents === undefined) {
      agents = new Set();
      this.#attached.set(channel, agents);
    }
    agents.add(agent);
    try {
      await this.#subscribe(channel);
    } catch (error) {
      await this.#release(channel, agent);
      throw error;
    }
    let detached = false;
    return async () => {
      if (detached) return;
      detached = true;
      await this.#release(channel, agent);
    };
  }

  /**
   * Interrupts every agent attached under `key` in any process, with `message` as the
   * interrupt's message when given. Resolves with the number of processes that received it
   * (0: nobody is attached, or their process is not connected); rejects with
   * `StoreUnavailableError` when Redis cannot be reached.
   */
  async interrupt(key: string, message?: Msg): Promise<number> {
    assertKey(key, 'RedisInterrupts.interrupt()');
    if (message !== undefined && !isMsgLike(message)) {
      throw new InvalidArgumentError(
        'RedisInterrupts.interrupt(key, message): message must be a Msg (userMsg(), createMsg()).',
      );
    }
    const payload = JSON.stringify(message === undefined ? { v: 1 } : { v: 1, message });
    const receivers = await this.#publisher.command<number>(
      ['PUBLISH', this.prefix + key, payload],
      `interrupting ${JSON.stringify(key)}`,
    );
    return Number(receivers);
  }

  /** Detaches every agent and releases the connections this object created. Idempotent. */
  async close(): Promise<void> {
    this.#attached.clear();
    this.#listeners.clear();
    const subscriber = this.#subscriber;
    this.#subscriber = undefined;
    await Promise.all([subscriber?.close(), this.#publisher.close()]);
  }

  /** The client `interrupt()` publishes with, connected. */
  client(): Promise<RedisClient> {
    return this.#publisher.ready('connecting');
  }

  async #subscribe(channel: string): Promise<void> {
    const pending = this.#pending.get(channel);
    if (pending !== undefined) return pending;
    if (this.#listeners.has(channel)) return;
    const listener = (payload: string): void => this.#dispatch(channel, payload);
    this.#subscriber ??= this.#publisher.duplicate('RedisInterrupts subscriber');
    const subscriber = this.#subscriber;
    const subscribing = subscriber
      .bounded(`listening for interrupts on ${channel}`, (client) =>
        client.subscribe(channel, listener),
      )
      .then(async () => {
        this.#listeners.set(channel, listener);
        // Everyone detached while the subscription was on its way: do not keep it.
        if (!this.#attached.has(channel)) await this.#release(channel, undefined);
      })
      .finally(() => this.#pending.delete(channel));
    this.#pending.set(channel, subscribing);
    return subscribing;
  }

  async #release(channel: string, agent: AgentBase | undefined): Promise<void> {
    const agents = this.#attached.get(channel);
    if (agent !== undefined) agents?.delete(agent);
    if (agents !== undefined && agents.size > 0) return;
    this.#attached.delete(channel);
    const listener = this.#listeners.get(channel);
    this.#listeners.delete(channel);
    if (listener === undefined || this.#subscriber === undefined) return;
    await this.#subscriber
      .bounded(`detaching from ${channel}`, (client) => client.unsubscribe(channel, listener))
      .catch(() => undefined);
  }

  #dispatch(channel: string, payload: string): void {
    const message = parseMessage(payload);
    for (const agent of this.#attached.get(channel) ?? []) {
      if (message === undefined) agent.interrupt();
      else agent.interrupt(message);
    }
  }
}

function assertKey(key: unknown, method: string): asserts key is string {
  if (typeof key !== 'string' || key === '') {
    throw new InvalidArgumentError(
      `${method}: key must be a non-empty string (a run or conversation id).`,
    );
  }
}

function isMsgLike(value: unknown): value is Msg {
  return (
    isJsonObject(value) && typeof value['role'] === 'string' && Array.isArray(value['content'])
  );
}

// Another process's payload is untrusted: a message that is not a Msg interrupts without one.
function parseMessage(payload: string): Msg | undefined {
  try {
    const data: unknown = JSON.parse(payload);
    const message = isJsonObject(data) ? data['message'] : undefined;
    return isMsgLike(message) && typeof message['name'] === 'string' ? message : undefined;
  } catch {
    return undefined;
  }
}
