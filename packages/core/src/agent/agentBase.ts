import { defer, EMPTY, lastValueFrom, Observable, of } from 'rxjs';
import { AgentBusyError } from '../errors.js';
import { AgentHooks } from '../hooks/agentHooks.js';
import type { Hook } from '../hooks/hook.js';
import type { HookEvent } from '../hooks/hookEvent.js';
import { assertFinalMethods } from '../internal/assertFinalMethods.js';
import { checkAgentName } from '../internal/checkAgentName.js';
import { newId } from '../internal/newId.js';
import type { JsonObject } from '../json.js';
import type { Msg } from '../message/msg.js';
import { checkAgentOptions } from '../options/checkAgentOptions.js';
import type { StateModule } from '../state/stateModule.js';
import type { LoadStateOptions } from '../state/stateOwner.js';
import { StateRegistry } from '../state/stateRegistry.js';
import type { Agent } from './agent.js';
import type { AgentBaseOptions, RecoverOptions } from './agentBaseOptions.js';
import { AgentCalls } from './agentCalls.js';
import type { AgentEvent } from './agentEvent.js';
import { notDurable } from './agentRecovery.js';
import { type AgentTool, type AgentToolOptions, agentTool } from './agentTool.js';
import type { CallContext } from './callContext.js';
import type { CallInput, InterruptContext } from './callOptions.js';
import { type CallsAgent, interruptedReply } from './callSteps.js';
import type { TapCallOptions } from './eventTap.js';
import { HubSubscribers } from './hubSubscribers.js';
import { observeEach } from './observeEach.js';
import { steeredMsgs } from './steerInput.js';
import { streamOf } from './streamOf.js';
import type { StreamOptions } from './streamOptions.js';

export type { AgentBaseOptions, RecoverOptions } from './agentBaseOptions.js';

/**
 * Sends the event snapshots of `agent`'s running call from now on to `sink` too, as `stream()`
 * would; false when no call runs. Internal: AgentHost's `attach()` to a call made without it.
 */
export let tapRunning: (agent: AgentBase, sink: (event: AgentEvent) => void) => boolean;

/**
 * The base of every agent. AgentBase owns the infrastructure — the running guard, hooks,
 * interrupts, hub subscribers and state — and a subclass owns only `doCall()`.
 *
 * `call()`, `stream()`, `reply()` and `observe()` are final: the constructor throws a
 * TypeError when a subclass overrides them.
 *
 * @example
 * ```ts run
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
export abstract class AgentBase implements Agent {
  /**
   * The option names this class adds to its base class's. When every class from the one being
   * constructed up to AgentBase declares its own, the constructor rejects any other key with a
   * TypeError naming it (and the name likely meant): `static override readonly optionKeys = […]`.
   */
  static readonly optionKeys: readonly string[] = ['name', 'description', 'hooks', 'id', 'durable'];

  readonly id: string;
  readonly name: string;
  readonly description: string;

  readonly #hooks: AgentHooks;
  readonly #state: StateRegistry;
  readonly #calls: AgentCalls; // the running guard, interrupts, queue, steering, call steps

  constructor(options: AgentBaseOptions) {
    assertFinalMethods(new.target, AgentBase.prototype);
    checkAgentOptions(new.target, AgentBase, options);
    this.name = checkAgentName(new.target.name, options);
    this.id = options.id ?? newId();
    this.description = options.description ?? '';
    this.#state = new StateRegistry(this.name);
    this.#hooks = new AgentHooks(options.hooks);
    const own = this.stateDict === AgentBase.prototype.stateDict;
    const agent = this as unknown as CallsAgent; // its protected methods, for its calls
    this.#calls = new AgentCalls(agent, this.#hooks, this.#state, options.durable, own);
  }

  /**
   * Runs one call. Cold: each subscription is one call that emits exactly one reply Msg and
   * completes, or errors (`AgentBusyError` when a call is in flight, `CallAbortedError` when
   * `options.signal` aborts before or while it runs, or the error that failed the call).
   * Unsubscribing cancels it: `CallContext.signal` aborts, the agent is callable again at once,
   * and a durable call saves nothing more (its checkpoint stays as at its last boundary).
   */
  call(input?: CallInput, options: TapCallOptions = {}): Observable<Msg> {
    // The call's phases emit into this subscriber (`sink`: none; `stream()` passes one).
    return new Observable((subscriber) => this.#calls.start(subscriber, input, options, undefined));
  }

  /**
   * Continues the call a stopped process left unfinished under this agent's `durable` key. Cold:
   * loads the checkpoint into the agent (also when its call finished, so memory is there); when
   * that holds an unfinished call, continues it from its last step boundary and emits its one
   * reply like `call()` (hooks run, `preCall.recovered` is true); else completes without a value.
   * Its first act is a versioned save: of two processes recovering one key the loser errors with
   * `SessionConflictError` before any side effect. Errors with `InvalidArgumentError` when not
   * durable, `AgentBusyError` while a call runs, and like `call()`. Unsubscribing cancels it.
   */
  recover(options: RecoverOptions = {}): Observable<Msg> {
    return this.#calls.recovery?.recover(options) ?? notDurable(this.name);
  }

  /** `call()` as a Promise: resolves with the reply, rejects with the call's error. */
  reply(input?: CallInput, options: TapCallOptions = {}): Promise<Msg> {
    return lastValueFrom(this.call(input, options));
  }

  /**
   * `call()` that waits its turn instead of failing with `AgentBusyError`: queued calls run in
   * the order subscribed (FIFO), each once the call before it (queued or not) ended. Cold; emits
   * the reply and completes, or errors like `call()`. Unsubscribing while it waits removes it
   * from the queue; while it runs, cancels it like `call()`.
   */
  queue(input?: CallInput, options: TapCallOptions = {}): Observable<Msg> {
    return this.#calls.queue(() => this.call(input, options));
  }

  /**
   * Adds a message to the running call: stored once and sent with its very next model request
   * (a ReActAgent's next reasoning step, after the current tool batch), no extra request; the
   * reply's `metadata.steered` lists the ids of the steered Msgs sent. A string becomes a user
   * Msg; a Msg keeps its id. Steered while idle, or left untaken when the call ends, messages go
   * to `doObserve` (a ReActAgent stores them) for the next call; its failure goes to the `error`
   * hooks as an `ObserveError`. An empty message is an `InvalidArgumentError`; nothing is stored.
   */
  steer(input: string | Msg | readonly Msg[]): void {
    this.#calls.steer(steeredMsgs(input, `${this.name}.steer()`));
  }

  /**
   * Runs the same call as `call()` and emits a frozen snapshot of each of its hook events, in
   * order, then `{ type: 'reply', msg }`, then completes. Cold; errors and cancels like `call()`.
   * With `options.events`, only events of those types are emitted (and built); an unknown type
   * is a TypeError naming it.
   */
  stream(input?: CallInput, options: StreamOptions = {}): Observable<AgentEvent> {
    return streamOf(this.name, options, (given, sink, replies, types) =>
      this.#calls.start(replies, input, given, sink, undefined, types),
    );
  }

  /** Receives messages without replying (`doObserve`, in order). Cold; emits one `undefined`. */
  observe(input: Msg | readonly Msg[]): Observable<void> {
    return observeEach(input, `${this.name}.observe()`, (msg) => this.doObserve(msg));
  }

  /**
   * Asks the running call to stop: sets a flag `checkInterrupted()` raises at the subclass's
   * checkpoints and aborts `CallContext.signal`, so in-flight work stops at once. An interrupt
   * made while idle is forgotten when the next call starts.
   */
  interrupt(message?: Msg, source: InterruptContext['source'] = 'user'): void {
    this.#calls.interrupt(message, source);
  }

  /**
   * This agent as a Tool `{ request }` another agent can call (see `agentTool`). A durable
   * agent's tool is idempotent: the request's id is made from the tool call's, so a call run
   * again after a restart recovers that request's unfinished call (or returns its reply).
   */
  asTool(options?: AgentToolOptions): AgentTool {
    return agentTool(this, options, this.#calls.recovery?.delegate);
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
    return AgentHooks.system.add(hook);
  }

  /** Removes every system hook. */
  static clearSystemHooks(): void {
    AgentHooks.system.clear();
  }

  /**
   * Makes `agents` (minus this one) observe this agent's replies for hub `hubId`, in order and
   * before the caller gets each; one whose `observe` fails is reported to the `error` hooks as
   * an `ObserveError` (naming it), failing neither delivery nor call.
   */
  resetSubscribers(hubId: string, agents: readonly AgentBase[]): void {
    this.#calls.subscribers ??= new HubSubscribers();
    this.#calls.subscribers.reset(hubId, this, agents);
  }

  /** Stops broadcasting this agent's replies to hub `hubId`. */
  removeSubscribers(hubId: string): void {
    this.#calls.subscribers?.remove(hubId);
  }

  /** Whether a call is in flight. */
  get isRunning(): boolean {
    return this.#calls.active !== undefined;
  }

  /** Whether the agent is durable (made with the `durable: { session, key }` option). */
  get isDurable(): boolean {
    return this.#calls.recovery !== undefined;
  }

  /**
   * The agent's whole state: `{ version, agentName, ...registered modules }`, JSON-only. Loading
   * it into an agent of another name fails unless asked to rename (see `loadStateDict`).
   */
  stateDict(): JsonObject {
    return this.#state.stateDict();
  }

  /**
   * Restores a state from `stateDict()`; a module whose key it omits is left as it is. Throws
   * `AgentBusyError` while a call runs, and a `StateError` whose `path` names the bad part
   * (version, unknown key, a part a module rejects), leaving the agent as it was. A state saved
   * by an agent of another name is a `StateError` (path `agentName`), since memory tells own
   * turns by name; with `{ rename: true }` it loads and `renameSpeaker(saved, this.name)` runs.
   */
  loadStateDict(state: JsonObject, options: LoadStateOptions = {}): void {
    if (this.#calls.active) throw new AgentBusyError(this.name);
    this.#calls.loadState(state, options);
  }

  /**
   * Makes the turns agent `from` spoke in a loaded state this agent's (`to`): called by
   * `loadStateDict(state, { rename: true })`. Default: nothing (AgentBase keeps no conversation).
   */
  protected renameSpeaker(_from: string, _to: string): void {}

  /** The business logic: produce the reply to `msgs`. Emit one Msg (the last one counts). */
  protected abstract doCall(msgs: Msg[], context: CallContext): Observable<Msg>;

  /** Receives a message without replying. Default: nothing. */
  protected doObserve(_msg: Msg): Observable<void> {
    return EMPTY;
  }

  /** The reply to an interrupted call (AgentBase marks it `interrupted`, reason `interrupted`). */
  protected handleInterrupt(context: InterruptContext, _msgs: Msg[]): Observable<Msg> {
    return defer(() => of(interruptedReply(this.name, context)));
  }

  /** Errors with `InterruptedError` when `interrupt()` came during this call; else completes. */
  protected checkInterrupted(): Observable<never> {
    return this.#calls.checkInterrupted();
  }

  /** Whether `interrupt()` was called during the current call. */
  protected get interruptRequested(): boolean {
    return this.#calls.interrupted !== undefined;
  }

  /**
   * Runs the hooks (the agent's and the system's) that want `event.type` on `event` and emits it
   * as they left it; during a call, also records a snapshot for `stream()` (`CallContext.notify`).
   */
  protected notify<E extends HookEvent>(event: E): Observable<E> {
    return this.#calls.active?.context.notify(event) ?? this.#hooks.run(event);
  }

  /** Whether a hook, `stream()` or a tap listens (`CallContext.listens` asks of one type). */
  protected get hasEventListeners(): boolean {
    return this.#hooks.any || this.#calls.active?.watched === true;
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

  static {
    tapRunning = (agent, sink) => agent.#calls.tap(sink);
  }
}
