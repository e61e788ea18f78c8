import { defer, EMPTY, lastValueFrom, Observable } from 'rxjs';
import type { AgentEvent } from '../agent/agentEvent.js';
import type { CallInput, CallOptions } from '../agent/callOptions.js';
import { InvalidArgumentError } from '../errors.js';
import type { Msg } from '../message/msg.js';
import { checkOptions } from '../options/checkOptions.js';
import {
  AGENT_HOST_OPTION_KEYS,
  type AgentHostOptions,
  DEFAULT_MAX_LIVE,
} from './agentHostOptions.js';
import { checkThreadId, HostThreads } from './hostThreads.js';
import { recoverRun } from './recoverRun.js';
import { runCall } from './runCall.js';
import { steerThread } from './steerThread.js';

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
  readonly #durable: boolean;
  /** The live threads: made, loaded, saved and evicted there. */
  readonly #threads: HostThreads;

  constructor(options: AgentHostOptions) {
    checkOptions(options, AGENT_HOST_OPTION_KEYS, 'AgentHost');
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
    this.#durable = options.durable === true;
    this.#threads = new HostThreads({
      create: options.create,
      session: options.session,
      maxLive,
      durable: this.#durable,
    });
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
    return this.#threads.get(threadId) !== undefined;
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
      const thread = this.#threads.thread(threadId, method);
      return thread.turns.run(() => runCall(this.#threads, thread, input, options, streamed));
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
      const thread = this.#threads.thread(threadId, 'recover()');
      return thread.turns.run(() => recoverRun(this.#threads, thread, inputId));
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
    const done = steerThread(this.#threads, threadId, input);
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
  delete(threadId: string): Promise<void> {
    return this.#threads.delete(threadId);
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
    await this.#threads.evict(threadId, options);
  }

  /**
   * Saves every live thread that changed since its last save and evicts every idle one.
   * Resolves when all saves finished; rejects with the first failure.
   */
  flush(): Promise<void> {
    return this.#threads.flush();
  }
}
