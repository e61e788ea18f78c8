import { defer, EMPTY, lastValueFrom, Observable, of, throwError } from 'rxjs';
import type { CheckpointCall } from '../durable/checkpoint.js';
import { AgentBusyError, InterruptedError } from '../errors.js';
import { AgentHooks } from '../hooks/agentHooks.js';
import type { Hook } from '../hooks/hook.js';
import type { HookEvent } from '../hooks/hookEvent.js';
import { assertFinalMethods } from '../internal/assertFinalMethods.js';
import { checkAgentName } from '../internal/checkAgentName.js';
import { newId } from '../internal/newId.js';
import { isJsonObject, type JsonObject } from '../json.js';
import { createMsg, type Msg } from '../message/msg.js';
import { checkAgentOptions } from '../options/checkAgentOptions.js';
import type { StateModule } from '../state/stateModule.js';
import { type LoadStateOptions, renamedFrom } from '../state/stateOwner.js';
import { StateRegistry } from '../state/stateRegistry.js';
import type { Agent } from './agent.js';
import type { AgentBaseOptions, RecoverOptions } from './agentBaseOptions.js';
import { AgentCalls } from './agentCalls.js';
import type { AgentEvent } from './agentEvent.js';
import { AgentRecovery, notDurable } from './agentRecovery.js';
import { type AgentTool, type AgentToolOptions, agentTool } from './agentTool.js';
import type { CallContext } from './callContext.js';
import type { CallInput, CallOptions, InterruptContext } from './callOptions.js';
import { HubSubscribers } from './hubSubscribers.js';
import { observeEach } from './observeEach.js';
import { steeredMsgs } from './steerInput.js';
import { streamEventTypes } from './streamEventTypes.js';
import { streamOf } from './streamOf.js';
import type { StreamOptions } from './streamOptions.js';

export type { AgentBaseOptions, RecoverOptions } from './agentBaseOptions.js';

/**
 * Sends the event snapshots of `agent`'s running call from now on to `sink` too, as if it had
 * been started with `stream()`; false when no call runs. Internal (not exported from the
 * package): AgentHost's `attach()` to a call started without `stream()`.
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
   * The option names this class adds to its base class's. When every class from the one
   * being constructed up to AgentBase declares its own `optionKeys`, the constructor rejects
   * any other key with a TypeError naming it (and the name it was likely meant as). A
   * subclass that adds options opts in by declaring them:
   * `static override readonly optionKeys = ['greeting']`.
   */
  static readonly optionKeys: readonly string[] = ['name', 'description', 'hooks', 'id', 'durable'];

  readonly id: string;
  readonly name: string;
  readonly description: string;

  readonly #hooks: AgentHooks;
  #subscribers: HubSubscribers | undefined;
  readonly #state: StateRegistry;
  readonly #calls: AgentCalls; // the running guard, interrupts, queue, steering, call steps
  readonly #recovery: AgentRecovery | undefined; // when durable

  constructor(options: AgentBaseOptions) {
    assertFinalMethods(new.target, AgentBase.prototype);
    checkAgentOptions(new.target, AgentBase, options);
    this.name = checkAgentName(new.target.name, options);
    this.id = options.id ?? newId();
    this.description = options.description ?? '';
    this.#state = new StateRegistry(this.name);
    this.#hooks = new AgentHooks(options.hooks);
    if (options.durable !== undefined)
      this.#recovery = new AgentRecovery(options.durable, {
        name: this.name,
        running: () => this.isRunning,
        loadStateDict: (state) => this.loadStateDict(state),
        loadState: (state) => this.#loadState(state),
        checkpointState: () =>
          // Without copies of the memory's messages (`StateModule.checkpointDict`), unless
          // a subclass overrides stateDict().
          this.stateDict === AgentBase.prototype.stateDict
            ? this.#state.checkpointDict()
            : this.stateDict(),
        run: (input, callOptions, recovering) =>
          this.#run(input, callOptions, undefined, recovering),
      });
    this.#calls = new AgentCalls({
      agent: this,
      hooks: this.#hooks,
      recovery: this.#recovery,
      doCall: (msgs, context) => this.doCall(msgs, context),
      handleInterrupt: (context, msgs) => this.handleInterrupt(context, msgs),
      doObserve: (msg) => this.doObserve(msg),
      defaultSystemPrompt: () => this.defaultSystemPrompt(),
      supportsStructuredOutput: () => this.supportsStructuredOutput,
      subscribers: () => this.#subscribers,
    });
  }

  /**
   * Runs one call. Cold: nothing happens until subscription, and each subscription is one
   * call that emits exactly one reply Msg and completes, or errors (`AgentBusyError` when
   * a call is already in flight, `CallAbortedError` when `options.signal` is aborted before
   * or while it runs, or the error that failed the call). Unsubscribing cancels the call:
   * `CallContext.signal` aborts and the agent is callable again at once; a durable call
   * saves nothing after that, so its checkpoint stays as it was at its last boundary.
   */
  call(input?: CallInput, options: CallOptions = {}): Observable<Msg> {
    return this.#run(input, options, undefined);
  }

  /**
   * Continues the call a stopped process left unfinished under this agent's `durable` key.
   * Cold: on subscription it loads the checkpoint into the agent (also when its call
   * finished, so memory is there); when that holds an unfinished call, continues it from its
   * last step boundary and emits its one reply like `call()` (hooks run, `preCall.recovered`
   * is true), then completes; otherwise completes without a value. Its first act is a
   * versioned save, so of two processes recovering one key the loser errors with
   * `SessionConflictError` before any side effect. Errors with `InvalidArgumentError` when
   * the agent is not durable, `AgentBusyError` while a call is in flight, and like `call()`.
   * Unsubscribing cancels the recovered call (its checkpoint stays, to be recovered again).
   */
  recover(options: RecoverOptions = {}): Observable<Msg> {
    return this.#recovery?.recover(options) ?? notDurable(this.name);
  }

  /** `call()` as a Promise: resolves with the reply, rejects with the call's error. */
  reply(input?: CallInput, options: CallOptions = {}): Promise<Msg> {
    return lastValueFrom(this.call(input, options));
  }

  /**
   * `call()` that waits its turn instead of failing with `AgentBusyError`: queued calls run
   * one after another in the order they were subscribed (FIFO), each once the call before it
   * (queued or not) has ended. Cold; emits the call's one reply and completes, or errors like
   * `call()`. Unsubscribing while it waits removes it from the queue; unsubscribing while it
   * runs cancels it like `call()`.
   */
  queue(input?: CallInput, options: CallOptions = {}): Observable<Msg> {
    return this.#calls.queue(() => this.call(input, options));
  }

  /**
   * Adds a message to the running call: it is stored once and sent with the call's very next
   * model request (a ReActAgent takes it before its next reasoning step, after the tools of
   * the current batch finished), with no extra request, and the reply's `metadata.steered`
   * lists the ids of the steered Msgs the call sent. A string becomes a user Msg; a Msg keeps
   * its id. Steered while idle, or left untaken when the call ends, the messages are
   * delivered through `doObserve` (a ReActAgent stores them), so the next call sees them; a
   * `doObserve` failure goes to the `error` hooks as an `ObserveError`. An empty message
   * (no text, nothing else) is an `InvalidArgumentError`, and nothing is stored.
   */
  steer(input: string | Msg | readonly Msg[]): void {
    this.#calls.steer(steeredMsgs(input, `${this.name}.steer()`));
  }

  /**
   * Runs the same call as `call()` and emits a frozen snapshot of every hook event of it, in
   * order, then `{ type: 'reply', msg }`, then completes. Cold; errors and cancels like `call()`.
   * With `options.events`, only events of those types are emitted (and built: see
   * `StreamOptions.events`); an unknown type is a TypeError naming it.
   */
  stream(input?: CallInput, options: StreamOptions = {}): Observable<AgentEvent> {
    const { events, ...callOptions } = options;
    // Checked on subscription: a bad `events` errors the stream, like a bad call option.
    const types = () =>
      events === undefined ? undefined : streamEventTypes(`${this.name}.stream()`, events);
    const given = events === undefined ? options : callOptions;
    return streamOf((sink, replies) =>
      this.#calls.start(replies, input, given, sink, undefined, types()),
    );
  }

  /**
   * Lets this agent receive messages without replying (`doObserve` for each, in order).
   * Cold; emits one `undefined` when all were observed, then completes.
   */
  observe(input: Msg | readonly Msg[]): Observable<void> {
    return observeEach(input, `${this.name}.observe()`, (msg) => this.doObserve(msg));
  }

  /**
   * Asks the running call to stop. Cooperative: sets a flag `checkInterrupted()` raises at the
   * subclass's checkpoints and aborts `CallContext.signal`, so in-flight work stops at once.
   * An interrupt made while idle is forgotten when the next call starts.
   */
  interrupt(message?: Msg, source: InterruptContext['source'] = 'user'): void {
    this.#calls.interrupt(message, source);
  }

  /**
   * This agent as a Tool `{ request }` another agent can call: see `agentTool`. A durable
   * agent's tool is idempotent and survives a crash of the caller: the request is sent with
   * an id made from the tool call's, so a call run again after a restart first loads this
   * agent's checkpoint and recovers the unfinished call of that request (or returns the
   * reply it already gave) instead of asking anew.
   */
  asTool(options?: AgentToolOptions): AgentTool {
    return agentTool(this, options, this.#recovery?.delegate);
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
   * Makes `agents` (minus this one) observe this agent's replies for hub `hubId`, each reply in
   * order and before the caller gets it; a subscriber whose `observe` fails is reported to this
   * agent's `error` hooks as an `ObserveError` (naming it), failing neither delivery nor call.
   */
  resetSubscribers(hubId: string, agents: readonly AgentBase[]): void {
    this.#subscribers ??= new HubSubscribers();
    this.#subscribers.reset(hubId, this, agents);
  }

  /** Stops broadcasting this agent's replies to hub `hubId`. */
  removeSubscribers(hubId: string): void {
    this.#subscribers?.remove(hubId);
  }

  /** Whether a call is in flight. */
  get isRunning(): boolean {
    return this.#calls.active !== undefined;
  }

  /** Whether the agent is durable (made with the `durable: { session, key }` option). */
  get isDurable(): boolean {
    return this.#recovery !== undefined;
  }

  /**
   * The agent's whole state: `{ version, agentName, ...registered modules }`. JSON-only,
   * synchronous. `agentName` is this agent's name: loading the state into an agent of
   * another name fails unless asked to rename (see `loadStateDict`).
   */
  stateDict(): JsonObject {
    return this.#state.stateDict();
  }

  /**
   * Restores a state from `stateDict()`; a module whose key the state omits is left as it is.
   * Throws `AgentBusyError` while a call is in flight, and a `StateError` whose `path` names the
   * bad part (wrong version, unknown key, a part a module rejects), leaving the agent as it was.
   * A state saved by an agent of another name is a `StateError` (path `agentName`) naming both
   * names, since memory tells the agent's own turns from other speakers' by name; with
   * `{ rename: true }` it loads and `renameSpeaker(savedName, this.name)` makes them this
   * agent's.
   */
  loadStateDict(state: JsonObject, options: LoadStateOptions = {}): void {
    if (this.#calls.active) throw new AgentBusyError(this.name);
    this.#loadState(state, options);
  }

  /**
   * Makes the turns that the agent `from` spoke in loaded state this agent's (`to`, its own
   * name): called by `loadStateDict(state, { rename: true })` after loading a state saved by
   * `from`. Default: nothing (AgentBase keeps no conversation); an agent with memory renames
   * the messages named `from`.
   */
  protected renameSpeaker(_from: string, _to: string): void {}

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
      this.#calls.interrupted ? throwError(() => new InterruptedError(this.name)) : EMPTY,
    );
  }

  /** Whether `interrupt()` was called during the current call. */
  protected get interruptRequested(): boolean {
    return this.#calls.interrupted !== undefined;
  }

  /**
   * Runs this agent's hooks (and the system hooks) that want `event.type` on `event` and
   * emits the event as they left it; during a call, also records a snapshot for `stream()`
   * subscribers (`CallContext.notify` of the running call).
   */
  protected notify<E extends HookEvent>(event: E): Observable<E> {
    return this.#calls.active?.context.notify(event) ?? this.#hooks.run(event);
  }

  /**
   * Whether anything listens to hook events of the current call (a hook or a `stream()`);
   * `CallContext.listens(type)` asks the same of one event type.
   */
  protected get hasEventListeners(): boolean {
    return this.#hooks.any || this.#calls.active?.sink !== undefined;
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
    tapRunning = (agent, sink) => {
      const active = agent.#calls.active;
      if (active === undefined) return false;
      active.context.tap(sink);
      return true;
    };
  }

  /** `call()`'s Observable (see `AgentCalls.start`); `sink` gets its event snapshots. */
  #run(
    input: CallInput | undefined,
    given: CallOptions,
    sink: ((event: AgentEvent) => void) | undefined,
    recovering?: CheckpointCall,
    sinkTypes?: ReadonlySet<string>,
  ): Observable<Msg> {
    return new Observable<Msg>((subscriber) =>
      this.#calls.start(subscriber, input, given, sink, recovering, sinkTypes),
    );
  }

  /** `loadStateDict` without the running guard: for the call that is loading. */
  #loadState(state: JsonObject, options: LoadStateOptions = {}): void {
    const from = isJsonObject(state) ? renamedFrom(state, this.name, options) : undefined;
    this.#state.load(state);
    if (from !== undefined) this.renameSpeaker(from, this.name);
  }
}
