import { lastValueFrom } from 'rxjs';
import type { AgentBase } from '../agent/agentBase.js';
import { loadError } from '../durable/keyPlace.js';
import { deleteCheckpoint } from '../durable/storedCheckpoint.js';
import { AgentBusyError, InvalidArgumentError } from '../errors.js';
import type { JsonObject } from '../json.js';
import type { Session } from '../state/session.js';
import type { AgentHostCreateContext } from './agentHostOptions.js';
import { HostThread } from './hostThread.js';

/** What `HostThreads` keeps of its host's options (checked by `AgentHost`). */
export interface HostThreadsOptions {
  readonly create: (threadId: string, context: AgentHostCreateContext) => AgentBase;
  readonly session: Session | undefined;
  readonly maxLive: number;
  readonly durable: boolean;
}

/**
 * The live threads of an AgentHost and their lifecycle: a thread is made on first use, its
 * agent created by `create` and loaded from the session (or from what this process kept of
 * it, or with `recover()` on a durable host), saved after each call, and evicted least
 * recently used beyond `maxLive` (saved first when it changed since its last save).
 * Internal.
 */
export class HostThreads {
  readonly #create: (threadId: string, context: AgentHostCreateContext) => AgentBase;
  readonly #session: Session | undefined;
  readonly #maxLive: number;
  readonly #durable: boolean;
  /** Live threads, least recently used first. */
  readonly #threads = new Map<string, HostThread>();
  /** Saves of evicted threads still in flight, waited for before a thread is loaded again. */
  readonly #evicting = new Map<string, Promise<void>>();
  /** States of evicted threads when there is no session. */
  readonly #parked = new Map<string, JsonObject>();

  constructor(options: HostThreadsOptions) {
    this.#create = options.create;
    this.#session = options.session;
    this.#maxLive = options.maxLive;
    this.#durable = options.durable;
  }

  /** How many threads are live (or being loaded) now. */
  get size(): number {
    return this.#threads.size;
  }

  /** The live thread `threadId`, if it has one (its recency unchanged). */
  get(threadId: string): HostThread | undefined {
    return this.#threads.get(threadId);
  }

  /** The live thread `threadId` (made now when it has none), marked most recently used. */
  thread(threadId: string, method: string): HostThread {
    checkThreadId(threadId, method);
    let thread = this.#threads.get(threadId);
    if (thread) this.#threads.delete(threadId);
    else thread = new HostThread(threadId, (id) => this.#load(id));
    this.#threads.set(threadId, thread);
    return thread;
  }

  /**
   * A new agent for thread `threadId` from `create`; on a durable host, one that is durable
   * (else an `InvalidArgumentError` naming `create`).
   */
  made(threadId: string): AgentBase {
    if (!this.#durable) return this.#create(threadId, {});
    const session = this.#session as Session;
    const agent = this.#create(threadId, { durable: { session, key: threadId } });
    if (agent?.isDurable !== true) {
      throw new InvalidArgumentError(
        `AgentHost: create(${JSON.stringify(threadId)}) returned an agent that is not durable, but the host is (durable: true): pass its second argument's durable on, e.g. create: (threadId, { durable }) => new ReActAgent({ ..., durable }).`,
      );
    }
    return agent;
  }

  /** Saves `thread` to the session after a call (without a session, nothing to do yet). */
  async save(thread: HostThread): Promise<void> {
    const agent = thread.agent;
    if (this.#durable || this.#session === undefined || agent === undefined) return;
    await this.#session.save(thread.threadId, agent.stateDict());
    thread.dirty = false;
  }

  /** Evicts least recently used idle threads while more than `maxLive` are live. */
  evictOverflow(): void {
    if (this.#threads.size <= this.#maxLive) return;
    for (const thread of this.#threads.values()) {
      if (this.#threads.size <= this.#maxLive) return;
      if (!thread.busy) void this.#evict(thread).catch(() => {});
    }
  }

  /** See `AgentHost.evict`. */
  async evict(threadId: string, options: { readonly save?: boolean }): Promise<void> {
    const thread = this.#threads.get(threadId);
    if (thread === undefined) return;
    if (thread.busy) throw new AgentBusyError(thread.agent?.name ?? threadId);
    if (options.save === false) {
      this.#threads.delete(threadId);
      this.#parked.delete(threadId);
      return;
    }
    await this.#evict(thread);
  }

  /** See `AgentHost.flush`. */
  async flush(): Promise<void> {
    const saves: Promise<void>[] = [];
    for (const thread of [...this.#threads.values()]) {
      if (!thread.busy) saves.push(this.#evict(thread));
    }
    await Promise.all(saves);
  }

  /** See `AgentHost.delete`. */
  async delete(threadId: string): Promise<void> {
    const thread = this.#threads.get(threadId);
    if (thread?.busy) throw new AgentBusyError(thread.agent?.name ?? threadId);
    this.#threads.delete(threadId);
    this.#parked.delete(threadId);
    await this.#evicting.get(threadId);
    if (this.#session === undefined) return;
    // A durable thread's checkpoint has segments under keys of their own.
    if (this.#durable) await deleteCheckpoint(this.#session, threadId);
    else await this.#session.delete(threadId);
  }

  async #load(threadId: string): Promise<AgentBase> {
    await this.#evicting.get(threadId);
    const agent = this.made(threadId);
    if (this.#durable) {
      // The checkpoint is the state; a call a stopped process left unfinished ends first.
      await lastValueFrom(agent.recover(), { defaultValue: undefined });
      return agent;
    }
    const session = this.#session;
    const state = session ? await session.load(threadId) : this.#parked.get(threadId);
    try {
      if (state !== undefined) agent.loadStateDict(state);
    } catch (error) {
      // A stored state that does not load names its key (and file) for whoever repairs it.
      throw session ? loadError(error, session, threadId) : error;
    }
    this.#parked.delete(threadId);
    return agent;
  }

  /**
   * Drops an idle thread's agent, saving its state first when it changed since its last
   * save (to the session, or kept in this process without one). A failed save keeps the
   * thread live, so nothing is lost.
   */
  #evict(thread: HostThread): Promise<void> {
    const { threadId } = thread;
    this.#threads.delete(threadId);
    const agent = thread.agent;
    // A durable agent's checkpoints hold its state: nothing to save.
    if (agent === undefined || this.#durable || (!thread.dirty && this.#session !== undefined))
      return Promise.resolve();
    const state = agent.stateDict();
    if (this.#session === undefined) {
      this.#parked.set(threadId, state);
      return Promise.resolve();
    }
    const saving = this.#session.save(threadId, state).then(
      () => {
        this.#evicting.delete(threadId);
      },
      (error: unknown) => {
        this.#evicting.delete(threadId);
        if (!this.#threads.has(threadId)) this.#threads.set(threadId, thread);
        throw error;
      },
    );
    this.#evicting.set(
      threadId,
      saving.catch(() => {}),
    );
    return saving;
  }
}

/** Throws `InvalidArgumentError` unless `threadId` is a non-empty string. */
export function checkThreadId(threadId: unknown, method: string): void {
  if (typeof threadId !== 'string' || threadId === '') {
    throw new InvalidArgumentError(
      `AgentHost.${method}: the thread id must be a non-empty string (got ${JSON.stringify(threadId)}).`,
    );
  }
}
