import { defer, EMPTY, lastValueFrom, Observable, type Subscription } from 'rxjs';
import { type AgentBase, tapRunning } from '../agent/agentBase.js';
import type { AgentEvent } from '../agent/agentEvent.js';
import type { CallInput, CallOptions } from '../agent/callOptions.js';
import type { DurableOptions } from '../durable/durableOptions.js';
import { loadError } from '../durable/keyPlace.js';
import { deleteCheckpoint } from '../durable/storedCheckpoint.js';
import { AgentBusyError, InvalidArgumentError } from '../errors.js';
import { normalizeInput } from '../internal/normalizeInput.js';
import type { JsonObject } from '../json.js';
import { type Msg, userMsg } from '../message/msg.js';
import { checkOptions } from '../options/checkOptions.js';
import type { Session } from '../state/session.js';
import { HostThread } from './hostThread.js';
import { ThreadRun } from './threadRun.js';

/**
 * What `AgentHost` gives `create` besides the thread id: on a durable host, the agent's
 * `durable` option (the host's session, key = thread id) to pass on; `{}` otherwise.
 */
export interface AgentHostCreateContext {
  readonly durable?: DurableOptions;
}

/** Options of `new AgentHost()`. */
export interface AgentHostOptions {
  /**
   * Makes the agent of a thread, the first time the thread is used (or after eviction). On a
   * durable host, pass `context.durable` on as the agent's `durable` option:
   * `create: (threadId, { durable }) => new ReActAgent({ ..., durable })`.
   */
  readonly create: (threadId: string, context: AgentHostCreateContext) => AgentBase;
  /**
   * Where each thread's state lives (key = thread id): loaded when its agent is created,
   * saved after each call. Without one, a thread's state is kept in this process only when
   * it is evicted.
   */
  readonly session?: Session;
  /** How many threads keep a live agent; beyond it the least recently used idle one is evicted. Default 1000. */
  readonly maxLive?: number;
  /**
   * The agents are durable: `create(threadId, { durable })` receives `durable: { session,
   * key: threadId }` to give its agent (an agent that is not durable fails the thread's
   * first use with an error naming `create`). A thread's agent is loaded with `recover()`,
   * which first finishes a call a stopped process left unfinished there, and its own
   * checkpoints store it, so the host saves nothing itself and evicts without saving.
   * Needs `session` (an error at construction without one). Default `false`.
   */
  readonly durable?: boolean;
}

const OPTION_KEYS = ['create', 'session', 'maxLive', 'durable'];
const DEFAULT_MAX_LIVE = 1000;

/**
 * One agent definition serving many conversations (threads). A thread's agent is made by
 * `create(threadId)` on first use and loaded from `session` (key = thread id); it runs one
 * call at a time (the others queue, first come first served) while different threads run
 * concurrently; it is saved to `session` after each call, before the reply is emitted. Beyond
 * `maxLive` threads the least recently used idle one is evicted (saved first when it changed
 * since its last save) and reloaded when used again.
 *
 * @example
 * ```ts
 * const host = new AgentHost({
 *   create: (threadId) => new ReActAgent({ name: 'assistant', model, sysPrompt: 'Be brief.' }),
 *   session: new JsonFileSession('./threads'),
 * });
 * const reply = await host.reply('alice', 'Hello!');
 * host.attach('alice').subscribe((event) => console.log(event.type)); // follows a running call
 * ```
 */
export class AgentHost {
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

  constructor(options: AgentHostOptions) {
    checkOptions(options, OPTION_KEYS, 'AgentHost');
    if (typeof options?.create !== 'function') {
      throw new InvalidArgumentError(
        'AgentHost: options.create must be a function (threadId) => agent.',
      );
    }
    const maxLive = options.maxLive ?? DEFAULT_MAX_LIVE;
    if (!Number.isInteger(maxLive) || maxLive < 1) {
      throw new InvalidArgumentError(
        `AgentHost: options.maxLive must be a positive integer (got ${String(maxLive)}).`,
      );
    }
    if (options.durable === true && options.session === undefined) {
      throw new InvalidArgumentError(
        'AgentHost: durable: true needs a session (where the agents keep their checkpoints), e.g. new AgentHost({ create, session: new JsonFileSession(dir), durable: true }).',
      );
    }
    this.#create = options.create;
    this.#session = options.session;
    this.#maxLive = maxLive;
    this.#durable = options.durable === true;
  }

  /** Whether the host's agents are durable (`durable: true`). */
  get durable(): boolean {
    return this.#durable;
  }

  /** How many threads have a live agent (or are being loaded) now. */
  get liveThreads(): number {
    return this.#threads.size;
  }

  /** Whether thread `threadId` has a live agent now (it was used and not evicted). */
  isLive(threadId: string): boolean {
    return this.#threads.has(threadId);
  }

  /**
   * Runs one call on thread `threadId`, after the calls queued on it before. Cold; emits the
   * one reply and completes, or errors with the call's, the load's or the save's error.
   * Unsubscribing while it waits removes it from the queue; while it runs, cancels it.
   */
  call(threadId: string, input?: CallInput, options?: CallOptions): Observable<Msg> {
    return new Observable<Msg>((subscriber) =>
      this.#queued(threadId, input, options, false, 'call()').subscribe({
        next: (event) => {
          if (event.type === 'reply') subscriber.next(event.msg);
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      }),
    );
  }

  /** `call()` as a Promise of the reply. */
  reply(threadId: string, input?: CallInput, options?: CallOptions): Promise<Msg> {
    return lastValueFrom(this.call(threadId, input, options));
  }

  /**
   * Like `call()`, emitting the call's events (as `agent.stream()` does) and then its reply.
   * Cold; errors and cancels like `call()`.
   */
  stream(threadId: string, input?: CallInput, options?: CallOptions): Observable<AgentEvent> {
    return this.#queued(threadId, input, options, true, 'stream()');
  }

  /**
   * A call queued on thread `threadId`; `streamed`: whether its subscriber wants every
   * event (else only the reply is emitted, and the events are built only for followers).
   */
  #queued(
    threadId: string,
    input: CallInput | undefined,
    options: CallOptions | undefined,
    streamed: boolean,
    method: string,
  ): Observable<AgentEvent> {
    return defer(() => {
      const thread = this.#thread(threadId, method);
      return thread.turns.run(() => this.#run(thread, input, options, streamed));
    });
  }

  /**
   * Retries request `inputId` (the id of its input's first Msg) on thread `threadId` of a
   * durable host, after the thread's queue: the thread is loaded afresh from its
   * checkpoint; when the checkpoint holds that call unfinished it is continued, when finished
   * its stored reply is given, and then emits `{ type: 'reply', msg }`; when the checkpoint
   * holds another call, completes without a value (the request never started: run it).
   * For a worker that took over a dead worker's run. Errors with `InvalidArgumentError`
   * when the host is not durable.
   */
  recover(threadId: string, inputId: string): Observable<AgentEvent> {
    return defer(() => {
      if (!this.#durable) {
        throw new InvalidArgumentError(
          'AgentHost.recover(): the host is not durable (durable: true).',
        );
      }
      const thread = this.#thread(threadId, 'recover()');
      return thread.turns.run(() => this.#recoverOn(thread, inputId));
    });
  }

  /**
   * Interrupts the call running on thread `threadId` (see `AgentBase.interrupt`); also one
   * whose agent is still loading. No-op when nothing runs there.
   */
  interrupt(threadId: string, message?: Msg): void {
    const thread = this.#threads.get(threadId);
    const run = thread?.run;
    if (run === undefined) return;
    if (run.started) thread?.agent?.interrupt(message);
    else run.interrupt = { message };
  }

  /**
   * Adds a message to thread `threadId`: to its running call's next model request (see
   * `AgentBase.steer`), or, when nothing runs, to its conversation (loaded, delivered through
   * the agent's `doObserve`, saved) before the thread's next call. The Promise resolves once
   * the message is with the agent and rejects when loading or saving the thread failed;
   * ignoring it is safe.
   */
  steer(threadId: string, input: string | Msg | readonly Msg[]): Promise<void> {
    const done = defer(() => {
      const msgs =
        typeof input === 'string' ? [userMsg(input)] : normalizeInput(input, 'AgentHost.steer()');
      const thread = this.#thread(threadId, 'steer()');
      const run = thread.run;
      if (run?.started) {
        thread.agent?.steer(msgs);
        return EMPTY;
      }
      if (run !== undefined) {
        run.steered.push(...msgs);
        return EMPTY;
      }
      return thread.turns.run(() => this.#deliver(thread, msgs));
    });
    const promise = lastValueFrom(done, { defaultValue: undefined });
    promise.catch(() => {});
    return promise;
  }

  /**
   * Follows the call running on thread `threadId`: its events from its start, then live,
   * ending with its reply (erroring with its error). Completes at once when nothing runs
   * there. Unsubscribing stops following and leaves the call running. A call made with
   * `call()` or `reply()` builds its events only once followed (so it costs what the agent's
   * own `call()` does): its followers get them from when the first follower attached (from
   * its start when that was before its agent started), each model request's chunks from the
   * next request on; a `stream()` call's followers get every event from its start.
   */
  attach(threadId: string): Observable<AgentEvent> {
    return defer(() => {
      checkThreadId(threadId, 'attach()');
      const run = this.#threads.get(threadId)?.run;
      return run?.kind === 'call' ? run.follow() : EMPTY;
    });
  }

  /**
   * Forgets thread `threadId`: its live agent, and its state in the session (or kept in this
   * process); on a durable host, its checkpoint with its segments (`deleteCheckpoint`). Rejects with `AgentBusyError` while a call runs or waits on it.
   */
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

  /**
   * Evicts thread `threadId` now (saved first when it changed since its last save), so its
   * next use loads it again: for a process that shares the session with others which may
   * have advanced the thread since. With `{ save: false }` its agent is dropped unsaved: for
   * a process that learned its copy is stale (a worker that lost its hold on a run), whose
   * save would overwrite what another process stored since. Resolves at once when the
   * thread is not live; rejects with `AgentBusyError` while a call runs or waits on it.
   */
  async evict(threadId: string, options: { readonly save?: boolean } = {}): Promise<void> {
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

  /**
   * Saves every live thread that changed since its last save and evicts every idle one.
   * Resolves when all saves finished; rejects with the first failure.
   */
  async flush(): Promise<void> {
    const saves: Promise<void>[] = [];
    for (const thread of [...this.#threads.values()]) {
      if (!thread.busy) saves.push(this.#evict(thread));
    }
    await Promise.all(saves);
  }

  /** The live thread `threadId` (made now when it has none), marked most recently used. */
  #thread(threadId: string, method: string): HostThread {
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
  #made(threadId: string): AgentBase {
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

  async #load(threadId: string): Promise<AgentBase> {
    await this.#evicting.get(threadId);
    const agent = this.#made(threadId);
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
   * One call on `thread`, recorded for `attach()`, saved before its reply is emitted. A
   * `streamed` call runs through the agent's `stream()` and emits every event; otherwise
   * through its `call()`, emitting only the reply, and its events are recorded (through
   * `tapRunning`) only from when a follower attaches: a plain call pays nothing for
   * `attach()` while nobody follows it.
   */
  #run(
    thread: HostThread,
    input: CallInput | undefined,
    options: CallOptions | undefined,
    streamed: boolean,
  ) {
    return new Observable<AgentEvent>((subscriber) => {
      const run = new ThreadRun('call', streamed);
      thread.run = run;
      let inner: Subscription | undefined;
      let reply: AgentEvent | undefined;
      let ended = false;
      const end = (error?: unknown): void => {
        if (ended) return;
        ended = true;
        if (thread.run === run) thread.run = undefined;
        if (error === undefined) run.end();
        else run.fail(error);
        thread.turns.kick();
        this.#evictOverflow();
      };
      const finish = (): void => {
        if (reply === undefined) {
          end();
          subscriber.complete();
          return;
        }
        const last = reply;
        this.#save(thread).then(
          () => {
            run.record(last);
            end();
            subscriber.next(last);
            subscriber.complete();
          },
          (error: unknown) => {
            end(error);
            subscriber.error(error);
          },
        );
      };
      thread.ready().then(
        (agent) => {
          if (ended || subscriber.closed) return;
          run.started = true;
          const steered = run.steered.splice(0);
          const msgs = steered.length === 0 ? input : [...callMsgs(input), ...steered];
          const onError = (error: unknown): void => {
            thread.dirty = true;
            end(error);
            subscriber.error(error);
          };
          const onComplete = (): void => {
            thread.dirty = true;
            finish();
          };
          if (run.recording) {
            // Streamed, or a follower came while the agent was loading: every event.
            inner = agent.stream(msgs, options).subscribe({
              next: (event) => {
                if (event.type === 'reply') {
                  reply = event;
                  return;
                }
                run.record(event);
                if (streamed) subscriber.next(event);
              },
              error: onError,
              complete: onComplete,
            });
          } else {
            run.onFirstFollow = () => {
              tapRunning(agent, (event) => run.record(event));
            };
            inner = agent.call(msgs, options).subscribe({
              next: (msg) => {
                reply = Object.freeze({ type: 'reply', msg });
              },
              error: onError,
              complete: onComplete,
            });
          }
          if (run.interrupt !== undefined) agent.interrupt(run.interrupt.message);
        },
        (error: unknown) => {
          end(error);
          subscriber.error(error);
        },
      );
      return () => {
        inner?.unsubscribe();
        if (!ended) {
          thread.dirty = true;
          end();
        }
      };
    });
  }

  /** Continues request `inputId` on a fresh agent of `thread` (see `recover`). */
  #recoverOn(thread: HostThread, inputId: string): Observable<AgentEvent> {
    return new Observable<AgentEvent>((subscriber) => {
      const run = new ThreadRun('call');
      thread.run = run;
      run.started = true;
      const end = (): void => {
        if (thread.run === run) thread.run = undefined;
        run.end();
        thread.turns.kick();
        this.#evictOverflow();
      };
      // Another process may have advanced the thread: load it afresh.
      let agent: AgentBase;
      try {
        agent = this.#made(thread.threadId);
      } catch (error) {
        end();
        subscriber.error(error);
        return;
      }
      thread.replace(agent);
      const inner = agent.recover({ inputId }).subscribe({
        next: (msg) => {
          const event: AgentEvent = Object.freeze({ type: 'reply', msg });
          run.record(event);
          subscriber.next(event);
        },
        error: (error: unknown) => {
          end();
          subscriber.error(error);
        },
        complete: () => {
          end();
          subscriber.complete();
        },
      });
      return () => {
        inner.unsubscribe();
        if (thread.run === run) end();
      };
    });
  }

  /** Delivers steered messages to an idle thread's agent, then saves it. */
  #deliver(thread: HostThread, msgs: readonly Msg[]): Observable<never> {
    return new Observable<never>((subscriber) => {
      const run = new ThreadRun('steer');
      thread.run = run;
      const end = (error?: unknown): void => {
        if (thread.run === run) thread.run = undefined;
        run.end();
        thread.turns.kick();
        this.#evictOverflow();
        if (error === undefined) subscriber.complete();
        else subscriber.error(error);
      };
      thread
        .ready()
        .then((agent) => {
          agent.steer(msgs);
          thread.dirty = true;
          return this.#save(thread);
        })
        .then(() => end(), end);
    });
  }

  /** Saves `thread` to the session after a call (without a session, nothing to do yet). */
  async #save(thread: HostThread): Promise<void> {
    const agent = thread.agent;
    if (this.#durable || this.#session === undefined || agent === undefined) return;
    await this.#session.save(thread.threadId, agent.stateDict());
    thread.dirty = false;
  }

  /** Evicts least recently used idle threads while more than `maxLive` are live. */
  #evictOverflow(): void {
    if (this.#threads.size <= this.#maxLive) return;
    for (const thread of this.#threads.values()) {
      if (this.#threads.size <= this.#maxLive) return;
      if (!thread.busy) void this.#evict(thread).catch(() => {});
    }
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

/** A call's input as Msgs (a string is one user message). */
function callMsgs(input: CallInput | undefined): Msg[] {
  if (typeof input === 'string') return [userMsg(input)];
  return normalizeInput(input, 'AgentHost.call()');
}

/** Throws `InvalidArgumentError` unless `threadId` is a non-empty string. */
function checkThreadId(threadId: unknown, method: string): void {
  if (typeof threadId !== 'string' || threadId === '') {
    throw new InvalidArgumentError(
      `AgentHost.${method}: the thread id must be a non-empty string (got ${JSON.stringify(threadId)}).`,
    );
  }
}
