import {
  catchError,
  concatMap,
  defer,
  EMPTY,
  endWith,
  from,
  ignoreElements,
  Observable,
  of,
  tap,
  throwError,
} from 'rxjs';
import {
  AgentBusyError,
  InterruptedError,
  InvalidArgumentError,
  isAbortError,
  NoReplyError,
  ObserveError,
  UnsupportedStructuredOutputError,
} from '../errors.js';
import type { Hook } from '../hooks/hook.js';
import type { ErrorEvent, HookEvent, PostCallEvent, PreCallEvent } from '../hooks/hookEvent.js';
import { HookRegistry } from '../hooks/hookRegistry.js';
import { runErrorHooks } from '../hooks/runErrorHooks.js';
import { runHooks } from '../hooks/runHooks.js';
import { assertFinalMethods } from '../internal/assertFinalMethods.js';
import { lastReply } from '../internal/lastReply.js';
import { newId } from '../internal/newId.js';
import { normalizeInput } from '../internal/normalizeInput.js';
import type { JsonObject } from '../json.js';
import { createMsg, type Msg, withMetadata } from '../message/msg.js';
import type { StateModule } from '../state/stateModule.js';
import { StateRegistry } from '../state/stateRegistry.js';
import { ActiveCall } from './activeCall.js';
import { type AgentEvent, snapshotOf } from './agentEvent.js';
import type { CallContext, CallOptions, InterruptContext } from './callContext.js';
import { CallPhases } from './callPhases.js';

/** Options every agent accepts. */
export interface AgentBaseOptions {
  readonly name: string;
  readonly description?: string;
  readonly hooks?: readonly Hook[];
  readonly id?: string;
}

const systemHooks = new HookRegistry();

/**
 * The base of every agent. AgentBase owns the infrastructure — the running guard, hooks,
 * interrupts, hub subscribers and state — and a subclass owns only `doCall()`.
 *
 * `call()`, `stream()` and `observe()` are final: the constructor throws a TypeError when a
 * subclass overrides them.
 *
 * @example
 * ```ts
 * class Echo extends AgentBase {
 *   protected doCall(msgs: Msg[]): Observable<Msg> {
 *     return of(assistantMsg(msgs.map(textOf).join(' '), { name: this.name }));
 *   }
 * }
 * const echo = new Echo({ name: 'echo' });
 * echo.addHook({ onEvent: (e) => { if (e.type === 'preCall') e.input = [userMsg('hi')]; } });
 * const reply = await lastValueFrom(echo.call(userMsg('ignored')));   // "hi"
 * ```
 */
export abstract class AgentBase {
  readonly id: string;
  readonly name: string;
  readonly description: string;

  readonly #hooks = new HookRegistry();
  /** Hub subscribers by hub id; created on the first hub (most agents never join one). */
  #subscribers: Map<string, readonly AgentBase[]> | undefined;
  readonly #state: StateRegistry;
  #active: ActiveCall | undefined;
  #interrupt: InterruptContext | undefined;

  constructor(options: AgentBaseOptions) {
    assertFinalMethods(new.target, AgentBase.prototype);
    if (typeof options?.name !== 'string' || options.name.trim() === '') {
      throw new InvalidArgumentError(
        `${new.target.name}: options.name must be a non-empty string.`,
      );
    }
    this.id = options.id ?? newId();
    this.name = options.name;
    this.description = options.description ?? '';
    this.#state = new StateRegistry(this.name);
    for (const hook of options.hooks ?? []) this.#hooks.add(hook);
  }

  /**
   * Runs one call. Cold: nothing happens until subscription, and each subscription is one
   * call that emits exactly one reply Msg and completes, or errors (`AgentBusyError` when
   * a call is already in flight, or the error that failed the call). Unsubscribing cancels
   * the call: `CallContext.signal` aborts and the agent is callable again at once.
   */
  call(input?: Msg | readonly Msg[], options: CallOptions = {}): Observable<Msg> {
    return this.#run(input, options, undefined);
  }

  /**
   * Runs the same call as `call()` and emits a frozen snapshot of every hook event of it, in
   * order, then `{ type: 'reply', msg }`, then completes. Cold; errors like `call()`;
   * unsubscribing cancels the call.
   */
  stream(input?: Msg | readonly Msg[], options: CallOptions = {}): Observable<AgentEvent> {
    return new Observable<AgentEvent>((subscriber) =>
      this.#run(input, options, (event) => subscriber.next(event)).subscribe({
        next: (msg) => subscriber.next(Object.freeze({ type: 'reply', msg })),
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      }),
    );
  }

  /**
   * Lets this agent receive messages without replying (`doObserve` for each, in order).
   * Cold; emits one `undefined` when all were observed, then completes.
   */
  observe(input: Msg | readonly Msg[]): Observable<void> {
    return defer(() => from(normalizeInput(input, `${this.name}.observe()`))).pipe(
      concatMap((msg) => this.doObserve(msg)),
      ignoreElements(),
      endWith(undefined),
    );
  }

  /**
   * Asks the running call to stop. Cooperative: it sets a flag that `checkInterrupted()`
   * raises at the subclass's checkpoints and aborts `CallContext.signal`, so in-flight model
   * requests and tools can stop at once. An interrupt made while idle is forgotten when the
   * next call starts.
   */
  interrupt(message?: Msg, source: InterruptContext['source'] = 'user'): void {
    this.#interrupt = message === undefined ? { source } : { message, source };
    this.#active?.abort(new InterruptedError(this.name));
  }

  /** Registers a hook on this agent; returns a function that removes it. */
  addHook(hook: Hook): () => void {
    return this.#hooks.add(hook);
  }

  /** Removes a hook from this agent (no-op when absent). */
  removeHook(hook: Hook): void {
    this.#hooks.remove(hook);
  }

  /** Registers a hook on every agent, merged into each agent's priority order. */
  static addSystemHook(hook: Hook): () => void {
    return systemHooks.add(hook);
  }

  /** Removes every system hook. */
  static clearSystemHooks(): void {
    systemHooks.clear();
  }

  /**
   * Makes `agents` (minus this one) observe this agent's replies for hub `hubId`. Every
   * subscriber receives every reply, in order, before the caller does; a subscriber whose
   * `observe` fails is reported to this agent's `error` hooks as an `ObserveError` (naming
   * it) and neither stops delivery to the others nor fails this agent's call.
   */
  resetSubscribers(hubId: string, agents: readonly AgentBase[]): void {
    this.#subscribers ??= new Map();
    this.#subscribers.set(
      hubId,
      agents.filter((agent) => agent !== this),
    );
  }

  /** Stops broadcasting this agent's replies to hub `hubId`. */
  removeSubscribers(hubId: string): void {
    this.#subscribers?.delete(hubId);
  }

  /** Whether a call is in flight. */
  get isRunning(): boolean {
    return this.#active !== undefined;
  }

  /** The agent's whole state: `{ version, ...registered modules }`. JSON-only, synchronous. */
  stateDict(): JsonObject {
    return this.#state.stateDict();
  }

  /**
   * Restores a state from `stateDict()`; a module whose key the state omits is left as it is.
   * Throws `AgentBusyError` while a call is in flight, and a `StateError` whose `path` names
   * the bad part for a wrong version, an unknown key or a part a module rejects: the agent is
   * then left as it was.
   */
  loadStateDict(state: JsonObject): void {
    if (this.#active) throw new AgentBusyError(this.name);
    this.#state.load(state);
  }

  /** The business logic: produce the reply to `msgs`. Emit one Msg (the last one counts). */
  protected abstract doCall(msgs: Msg[], context: CallContext): Observable<Msg>;

  /** Receives a message without replying. Default: nothing. */
  protected doObserve(_msg: Msg): Observable<void> {
    return EMPTY;
  }

  /**
   * Produces the reply of an interrupted call. AgentBase then marks it with
   * `metadata.interrupted = true` and `generateReason: 'interrupted'`.
   */
  protected handleInterrupt(context: InterruptContext, _msgs: Msg[]): Observable<Msg> {
    const text = context.message
      ? 'I was interrupted. What would you like me to do next?'
      : 'I noticed that you interrupted me. What can I do for you?';
    return defer(() => of(createMsg({ name: this.name, role: 'assistant', content: text })));
  }

  /** Errors with `InterruptedError` when `interrupt()` was called during this call; else completes. */
  protected checkInterrupted(): Observable<never> {
    return defer(() =>
      this.#interrupt ? throwError(() => new InterruptedError(this.name)) : EMPTY,
    );
  }

  /** Whether `interrupt()` was called during the current call. */
  protected get interruptRequested(): boolean {
    return this.#interrupt !== undefined;
  }

  /**
   * Runs this agent's hooks (and the system hooks) on `event` and emits the event as they
   * left it. Also records a snapshot for `stream()` subscribers.
   */
  protected notify<E extends HookEvent>(event: E): Observable<E> {
    const run = runHooks(this.#hooks.merged(systemHooks), event);
    const sink = this.#active?.sink;
    return sink ? run.pipe(tap((final) => sink(snapshotOf(final)))) : run;
  }

  /**
   * Whether anything listens to hook events of the current call (a hook or a `stream()`):
   * lets subclasses skip building per-chunk events nobody receives.
   */
  protected get hasEventListeners(): boolean {
    return this.#hooks.merged(systemHooks).length > 0 || this.#active?.sink !== undefined;
  }

  /** The system prompt a call starts with, before preCall hooks. Default: none. */
  protected defaultSystemPrompt(): string {
    return '';
  }

  /** Whether `call(..., { structuredOutput })` is supported. Default: false. */
  protected get supportsStructuredOutput(): boolean {
    return false;
  }

  /** Registers nested state captured by `stateDict()` under `key`. */
  protected registerState(key: string, module: StateModule): void {
    this.#state.register(key, module);
  }

  #run(
    input: Msg | readonly Msg[] | undefined,
    options: CallOptions,
    sink: ((event: AgentEvent) => void) | undefined,
  ): Observable<Msg> {
    return new Observable<Msg>((subscriber) => {
      if (this.#active) {
        subscriber.error(new AgentBusyError(this.name));
        return;
      }
      if (options.structuredOutput !== undefined && !this.supportsStructuredOutput) {
        subscriber.error(new UnsupportedStructuredOutputError(this.constructor.name));
        return;
      }
      let msgs: Msg[];
      try {
        msgs = normalizeInput(input, `${this.name}.call()`);
      } catch (error) {
        subscriber.error(error);
        return;
      }
      const call = new ActiveCall(options, this.defaultSystemPrompt(), sink);
      this.#active = call;
      this.#interrupt = undefined;
      const phases = new CallPhases<Msg>(subscriber);
      this.#start(call, msgs, phases);
      return () => {
        // Cancel first, so a cancelled doCall's own teardown already sees the aborted signal.
        if (!phases.settled)
          call.cancel(new DOMException(`The call to "${this.name}" was cancelled.`, 'AbortError'));
        phases.unsubscribe();
        this.#release(call);
      };
    });
  }

  /** preCall hooks, then doCall: its reply goes to `#deliver`, its error to `#recover`. */
  #start(call: ActiveCall, input: Msg[], phases: CallPhases<Msg>): void {
    let msgs = input;
    const recover = (error: unknown): void => this.#recover(error, call, msgs, phases);
    this.#afterHooks<PreCallEvent>(
      { type: 'preCall', agent: this, input: msgs, systemPrompt: call.systemPrompt },
      phases,
      (event) => {
        msgs = event.input;
        call.systemPrompt = event.systemPrompt;
        phases.after(
          lastReply(
            () => this.doCall(msgs, call.context),
            () => new NoReplyError(this.name),
          ),
          (reply) => this.#deliver(reply, call, phases),
          recover,
        );
      },
      recover,
    );
  }

  /** postCall hooks, broadcast, release, reply; nothing when the call was cancelled. */
  #deliver(reply: Msg, call: ActiveCall, phases: CallPhases<Msg>): void {
    const fail = (error: unknown): void => this.#fail(error, call, phases);
    // A doCall that reacts to a cancellation by replying must not reach hooks or subscribers.
    if (call.cancelled) {
      phases.end();
      return;
    }
    phases.run(
      (final: Msg) =>
        this.#afterHooks<PostCallEvent>(
          { type: 'postCall', agent: this, reply: this.#withCallMetadata(final, call) },
          phases,
          (event) =>
            phases.after(
              this.#broadcast(event.reply),
              (delivered) => {
                this.#release(call);
                phases.finish(delivered);
              },
              fail,
            ),
          fail,
        ),
      reply,
      fail,
    );
  }

  /** An interrupt becomes `handleInterrupt`'s reply (marked); any other error fails the call. */
  #recover(error: unknown, call: ActiveCall, msgs: Msg[], phases: CallPhases<Msg>): void {
    if (call.cancelled) {
      phases.end();
      return;
    }
    const fail = (cause: unknown): void => this.#fail(cause, call, phases);
    const interrupted =
      error instanceof InterruptedError || (this.#interrupt !== undefined && isAbortError(error));
    if (!interrupted) {
      fail(error);
      return;
    }
    const context = this.#interrupt ?? { source: 'system' as const };
    phases.after(
      lastReply(
        () => this.handleInterrupt(context, msgs),
        () => new NoReplyError(this.name),
      ),
      (reply) =>
        this.#deliver(
          withMetadata(reply, { interrupted: true, generateReason: 'interrupted' }),
          call,
          phases,
        ),
      fail,
    );
  }

  /** The hooks on `event`, then `then` with the event as they left it; at once when nothing listens. */
  #afterHooks<E extends HookEvent>(
    event: E,
    phases: CallPhases<Msg>,
    then: (event: E) => void,
    onError: (error: unknown) => void,
  ): void {
    if (this.hasEventListeners) phases.after(this.notify(event), then, onError);
    else phases.run(then, event, onError);
  }

  #withCallMetadata(reply: Msg, call: ActiveCall): Msg {
    const extra: JsonObject = {};
    if (reply.metadata['generateReason'] === undefined) extra['generateReason'] = 'stop';
    const usage = call.context.usage;
    if (usage && reply.metadata['usage'] === undefined) extra['usage'] = { ...usage };
    return Object.keys(extra).length === 0 ? reply : withMetadata(reply, extra);
  }

  /** Has every hub subscriber observe `reply`, then emits it. */
  #broadcast(reply: Msg): Observable<Msg> {
    // Most calls have no subscriber: of(reply) is one subscription, EMPTY.pipe(endWith()) five.
    if (this.#subscribers === undefined) return of(reply);
    const targets = new Set<AgentBase>();
    for (const agents of this.#subscribers.values()) for (const agent of agents) targets.add(agent);
    if (targets.size === 0) return of(reply);
    return from(targets).pipe(
      concatMap((agent) => this.#deliverTo(agent, reply)),
      ignoreElements(),
      endWith(reply),
    );
  }

  /**
   * `agent.observe(reply)`; a failure is reported to this agent's error hooks as an
   * `ObserveError` and swallowed, so one broken subscriber neither starves the ones after
   * it nor fails a call whose reply was already produced.
   */
  #deliverTo(agent: AgentBase, reply: Msg): Observable<void> {
    return agent.observe(reply).pipe(
      catchError((cause: unknown) => {
        const error = new ObserveError(agent.name, this.name, { cause });
        return runErrorHooks(this.#hooks.merged(systemHooks), {
          type: 'error',
          agent: this,
          error,
        });
      }),
    );
  }

  /** Runs the error hooks (each isolated), then releases the call and errors with `error` itself. */
  #fail(error: unknown, call: ActiveCall, phases: CallPhases<Msg>): void {
    const event: ErrorEvent = { type: 'error', agent: this, error };
    const end = (): void => {
      call.sink?.(snapshotOf(event));
      this.#release(call);
      phases.fail(error);
    };
    phases.after(runErrorHooks(this.#hooks.merged(systemHooks), event), end, end, end);
  }

  #release(call: ActiveCall): void {
    if (this.#active !== call) return;
    this.#active = undefined;
    call.dispose();
  }
}
