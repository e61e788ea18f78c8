import {
  concatMap,
  defer,
  EMPTY,
  from,
  lastValueFrom,
  map,
  Observable,
  of,
  throwError,
} from 'rxjs';
import type { Checkpoint, CheckpointCall } from '../durable/checkpoint.js';
import { Checkpointer } from '../durable/checkpointer.js';
import { checkDurableOptions, type DurableOptions } from '../durable/durableOptions.js';
import { DurableRun } from '../durable/durableRun.js';
import { keyPlace, loadError } from '../durable/keyPlace.js';
import {
  AgentBusyError,
  CallAbortedError,
  InterruptedError,
  InvalidArgumentError,
  isAbortError,
  ObserveError,
  UnfinishedRunError,
} from '../errors.js';
import { AgentHooks } from '../hooks/agentHooks.js';
import type { Hook } from '../hooks/hook.js';
import type { HookEvent } from '../hooks/hookEvent.js';
import { assertFinalMethods } from '../internal/assertFinalMethods.js';
import { checkAgentName } from '../internal/checkAgentName.js';
import { newId } from '../internal/newId.js';
import { callInput, normalizeInput } from '../internal/normalizeInput.js';
import { frozenJson, isJsonObject, type JsonObject } from '../json.js';
import { createMsg, type Msg, userMsg } from '../message/msg.js';
import { checkAgentOptions } from '../options/checkAgentOptions.js';
import type { StateModule } from '../state/stateModule.js';
import { type LoadStateOptions, renamedFrom } from '../state/stateOwner.js';
import { StateRegistry } from '../state/stateRegistry.js';
import { ActiveCall } from './activeCall.js';
import type { Agent } from './agent.js';
import { type AgentEvent, streamOf } from './agentEvent.js';
import { type AgentTool, type AgentToolOptions, agentTool } from './agentTool.js';
import type { CallContext } from './callContext.js';
import type {
  CallInput,
  CallOptions,
  InterruptContext,
  StructuredOutputSchema,
} from './callOptions.js';
import type { TapCallOptions } from './eventTap.js';
import { HubSubscribers } from './hubSubscribers.js';
import { observeEach } from './observeEach.js';
import { streamEventTypes } from './streamEventTypes.js';
import type { StreamOptions } from './streamOptions.js';
import { TurnQueue } from './turnQueue.js';

/** Options every agent accepts. */
export interface AgentBaseOptions {
  readonly name: string;
  readonly description?: string;
  readonly hooks?: readonly Hook[];
  readonly id?: string;
  /**
   * Makes the agent's calls survive the death of their process: a checkpoint (its
   * `stateDict()` plus the progress of the running call) is saved under `key` in `session`
   * when a call starts, at each step boundary and when it ends, its memory's messages in
   * sealed segments written once (`<key>~seg.…`), and `recover()` continues an unfinished
   * call in another process. See the "Durable runs" guide. `undefined` is the same as
   * leaving it out (so `AgentHost`'s `create` can pass on the `durable` it receives).
   */
  readonly durable?: DurableOptions | undefined;
}

/** Options of `recover()`: what a checkpoint cannot hold. */
export interface RecoverOptions {
  /** Aborting it cancels the recovered call, like unsubscribing. */
  readonly signal?: AbortSignal;
  /** The schema of a structured-output call being recovered (StructuredOutputAgent). */
  readonly structuredOutput?: StructuredOutputSchema;
  /**
   * Only the call whose input's first Msg has this id (a request being retried, e.g. by a
   * worker that took over another's run): continued when unfinished, its stored reply
   * emitted when finished; a checkpoint of another call is only loaded, and nothing emitted.
   */
  readonly inputId?: string;
}

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
  #active: ActiveCall | undefined;
  #interrupt: InterruptContext | undefined;
  #turns: TurnQueue | undefined; // made by the first queue()
  readonly #checkpointer: Checkpointer | undefined;
  /** A durable agent that has neither loaded its key nor found it empty (see `#loadFirst`). */
  #fresh = true;

  constructor(options: AgentBaseOptions) {
    assertFinalMethods(new.target, AgentBase.prototype);
    checkAgentOptions(new.target, AgentBase, options);
    this.name = checkAgentName(new.target.name, options);
    this.id = options.id ?? newId();
    this.description = options.description ?? '';
    this.#state = new StateRegistry(this.name);
    this.#hooks = new AgentHooks(options.hooks);
    if (options.durable !== undefined)
      this.#checkpointer = new Checkpointer(checkDurableOptions(this.name, options.durable));
  }

  /**
   * Runs one call. Cold: nothing happens until subscription, and each subscription is one
   * call that emits exactly one reply Msg and completes, or errors (`AgentBusyError` when
   * a call is already in flight, `CallAbortedError` when `options.signal` is aborted before
   * or while it runs, or the error that failed the call). Unsubscribing cancels the call:
   * `CallContext.signal` aborts and the agent is callable again at once; a durable call
   * saves nothing after that, so its checkpoint stays as it was at its last boundary.
   */
  call(input?: CallInput, options: TapCallOptions = {}): Observable<Msg> {
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
    return defer(() => {
      if (this.#checkpointer === undefined) {
        throw new InvalidArgumentError(
          `${this.name}.recover(): the agent is not durable; create it with durable: { session, key }.`,
        );
      }
      if (this.#active) throw new AgentBusyError(this.name);
      return from(this.#loadCheckpoint());
    }).pipe(
      concatMap((checkpoint) => {
        if (checkpoint === undefined) return EMPTY;
        this.#fresh = false;
        this.#adopt(() => this.loadStateDict(checkpoint.state));
        const call = checkpoint.call;
        const { inputId, ...callOptions } = options;
        if (inputId !== undefined) {
          if (call?.input[0]?.id !== inputId) return EMPTY;
          if (call.status === 'finished') return call.reply ? of(call.reply) : EMPTY;
        }
        if (call?.status !== 'running') return EMPTY;
        const { structuredOutput, ...saved } = call.options;
        if (structuredOutput === true && options.structuredOutput === undefined) {
          throw new InvalidArgumentError(
            `${this.name}.recover(): the unfinished call asked for structured output; pass its schema again: recover({ structuredOutput: schema }).`,
          );
        }
        return this.#run([...call.input], { ...saved, ...callOptions }, undefined, call);
      }),
    );
  }

  /** `call()` as a Promise: resolves with the reply, rejects with the call's error. */
  reply(input?: CallInput, options: TapCallOptions = {}): Promise<Msg> {
    return lastValueFrom(this.call(input, options));
  }

  /**
   * `call()` that waits its turn instead of failing with `AgentBusyError`: queued calls run
   * one after another in the order they were subscribed (FIFO), each once the call before it
   * (queued or not) has ended. Cold; emits the call's one reply and completes, or errors like
   * `call()`. Unsubscribing while it waits removes it from the queue; unsubscribing while it
   * runs cancels it like `call()`.
   */
  queue(input?: CallInput, options: TapCallOptions = {}): Observable<Msg> {
    this.#turns ??= new TurnQueue(() => this.#active !== undefined);
    return this.#turns.run(() => this.call(input, options));
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
    const method = `${this.name}.steer()`;
    const msgs = typeof input === 'string' ? [userMsg(input)] : normalizeInput(input, method);
    checkSteered(msgs, method);
    if (this.#active) this.#active.context.steer(msgs);
    else this.#deliverSteered(msgs);
  }

  /**
   * Runs the same call as `call()` and emits a frozen snapshot of every hook event of it, in
   * order, then `{ type: 'reply', msg }`, then completes. Cold; errors and cancels like `call()`.
   * With `options.events`, only events of those types are emitted (and built: see
   * `StreamOptions.events`); an unknown type is a TypeError naming it.
   */
  stream(input?: CallInput, options: StreamOptions = {}): Observable<AgentEvent> {
    if (options.events === undefined) return streamOf((sink) => this.#run(input, options, sink));
    const { events, ...callOptions } = options;
    // Checked on subscription: a bad `events` errors the stream, like a bad call option.
    return streamOf((sink) =>
      this.#run(
        input,
        callOptions,
        sink,
        undefined,
        streamEventTypes(`${this.name}.stream()`, events),
      ),
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
    this.#interrupt = message === undefined ? { source } : { message, source };
    this.#active?.abort(new InterruptedError(this.name));
  }

  /**
   * This agent as a Tool `{ request }` another agent can call: see `agentTool`. A durable
   * agent's tool is idempotent and survives a crash of the caller: the request is sent with
   * an id made from the tool call's, so a call run again after a restart first loads this
   * agent's checkpoint and recovers the unfinished call of that request (or returns the
   * reply it already gave) instead of asking anew.
   */
  asTool(options?: AgentToolOptions): AgentTool {
    return agentTool(this, options, this.#checkpointer && this.#delegateDurably);
  }

  /** The reply to a request already made by tool call `requestId` (recovered), if any. */
  readonly #delegateDurably = (requestId: string): Observable<Msg> =>
    defer(async () => {
      const checkpointer = this.#checkpointer!;
      if (checkpointer.synced || this.#active) return undefined;
      const checkpoint = await this.#loadCheckpoint();
      this.#fresh = false;
      if (checkpoint === undefined) return undefined;
      this.#adopt(() => this.loadStateDict(checkpoint.state));
      return checkpoint.call?.input[0]?.id === requestId ? checkpoint.call : undefined;
    }).pipe(
      concatMap((call) => {
        if (call === undefined) return EMPTY;
        if (call.status === 'finished') return call.reply ? of(call.reply) : EMPTY;
        return this.#run([...call.input], call.options, undefined, call);
      }),
    );

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
    return this.#active !== undefined;
  }

  /** Whether the agent is durable (made with the `durable: { session, key }` option). */
  get isDurable(): boolean {
    return this.#checkpointer !== undefined;
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
    if (this.#active) throw new AgentBusyError(this.name);
    const from = isJsonObject(state) ? renamedFrom(state, this.name, options) : undefined;
    this.#state.load(state);
    if (from !== undefined) this.renameSpeaker(from, this.name);
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
      this.#interrupt ? throwError(() => new InterruptedError(this.name)) : EMPTY,
    );
  }

  /** Whether `interrupt()` was called during the current call. */
  protected get interruptRequested(): boolean {
    return this.#interrupt !== undefined;
  }

  /**
   * Runs this agent's hooks (and the system hooks) that want `event.type` on `event` and
   * emits the event as they left it; during a call, also records a snapshot for `stream()`
   * subscribers (`CallContext.notify` of the running call).
   */
  protected notify<E extends HookEvent>(event: E): Observable<E> {
    return this.#active?.context.notify(event) ?? this.#hooks.run(event);
  }

  /**
   * Whether anything listens to hook events of the current call (a hook, a `stream()` or a
   * tap);
   * `CallContext.listens(type)` asks the same of one event type.
   */
  protected get hasEventListeners(): boolean {
    const active = this.#active;
    return this.#hooks.any || active?.sink !== undefined || active?.context.tapped === true;
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
      const active = agent.#active;
      if (active === undefined) return false;
      active.context.tap(sink);
      return true;
    };
  }

  #run(
    input: CallInput | undefined,
    given: CallOptions,
    sink: ((event: AgentEvent) => void) | undefined,
    recovering?: CheckpointCall,
    sinkTypes?: ReadonlySet<string>,
  ): Observable<Msg> {
    return new Observable<Msg>((subscriber) => {
      let msgs: Msg[];
      let options: CallOptions;
      try {
        // 1. The running guard: a call while another is in flight changes nothing.
        if (this.#active) throw new AgentBusyError(this.name);
        msgs = callInput(this, input, given, this.supportsStructuredOutput);
        // A call its caller aborted already stores, saves and runs nothing.
        if (given.signal?.aborted) throw new CallAbortedError(this.name, given.signal.reason);
        // Who is asking stays as it was when the call started, whatever the caller does.
        options =
          given.callContext === undefined
            ? given
            : { ...given, callContext: frozenJson(given.callContext) };
      } catch (error) {
        subscriber.error(error);
        return;
      }
      const systemPrompt = this.defaultSystemPrompt();
      const release = (): void => {
        if (this.#active !== call) return;
        this.#active = undefined;
        const left = call.context.takeLeftSteered();
        if (left.length > 0) this.#deliverSteered(left);
        this.#turns?.kick();
      };
      const setup = {
        agent: this,
        options,
        systemPrompt,
        hooksFor: this.#hooks.forType,
        sinkTypes,
      };
      const durable = this.#durableRun(msgs, options, recovering);
      const recovery = { durable, recovering: recovering !== undefined };
      const call = new ActiveCall({ ...setup, sink, release, ...recovery }, subscriber);
      this.#active = call;
      // 2. An interrupt made while idle does not cut this call.
      this.#interrupt = undefined;
      this.#steps(call, msgs);
      return () => call.close();
    });
  }

  /**
   * The steps of a call after the guard (1) and the interrupt reset (2), in order. An
   * interrupt in steps 3–4 becomes `handleInterrupt`'s reply, marked, which goes on from
   * step 5; any other error runs the error hooks and fails the call.
   */
  #steps(call: ActiveCall, input: Msg[]): void {
    const { durable } = call;
    // 5. postCall hooks may replace the reply; 5a. a durable call saves itself finished;
    // 6. every hub subscriber observes it; 7. the guard is released, then the reply is emitted.
    // Without hub subscribers (most agents) the reply is emitted at once, with no Observable.
    const broadcast = (final: Msg) => () =>
      this.#subscribers === undefined
        ? call.finish(final)
        : call.finishAfter(this.#broadcast(final));
    const fail = (error: unknown): void => call.fail(error);
    const deliver = (reply: Msg): void =>
      call.postCall(reply, (final) =>
        durable
          ? call.afterSave(durable.finish(final), broadcast(final), fail)
          : broadcast(final)(),
      );
    const recover =
      (msgs: Msg[]) =>
      (error: unknown): void => {
        const interruptReply = this.#interruptReply(error, msgs);
        const go = (): void => call.recover(error, interruptReply, deliver);
        // A failed durable call is over, for its caller got the error: saved finished, unless
        // its checkpoint is no longer this process's (a failed save) or the caller left.
        if (durable && !interruptReply && !durable.failed && !call.cancelled)
          call.afterSave(durable.finish(), go, go);
        else go();
      };
    // 3. preCall hooks may replace the input and the system prompt.
    const start = (): void =>
      call.preCall(input, recover(input), (msgs) =>
        // 4. doCall produces the reply (completing without one is a NoReplyError).
        call.reply(() => this.doCall(msgs, call.context), deliver, recover(msgs)),
      );
    // 2a. A durable call saves its start (a recovered one: its claim on the run) first;
    // the first call of a fresh agent loads the stored checkpoint before (see #loadFirst).
    const saveStart = (): void =>
      call.afterSave(durable!.checkpoint(durable!.recovered), start, fail);
    if (!durable) start();
    else if (this.#fresh && !call.recovering) call.afterSave(this.#loadFirst(), saveStart, fail);
    else saveStart();
  }

  /**
   * What the first `call()` of a fresh durable agent does before its first save: it never
   * saves over a checkpoint it has not loaded. The stored state replaces the agent's (as
   * `recover()` loads it); when it holds an unfinished call, the call fails with
   * `UnfinishedRunError` (nothing saved) and the next `call()` checks again. Emits once.
   */
  #loadFirst(): Observable<void> {
    return from(this.#loadCheckpoint()).pipe(
      map((checkpoint) => {
        if (checkpoint === undefined) {
          this.#fresh = false;
          return;
        }
        this.#adopt(() => this.#loadState(checkpoint.state));
        if (checkpoint.call?.status === 'running') {
          const { session, key } = this.#checkpointer!;
          throw new UnfinishedRunError(this.name, key, keyPlace(session, key));
        }
        this.#fresh = false;
      }),
    );
  }

  /** The checkpoint under the durable key; a malformed one rejects naming the key and file. */
  async #loadCheckpoint(): Promise<Checkpoint | undefined> {
    const { session, key } = this.#checkpointer!;
    try {
      return await this.#checkpointer!.load();
    } catch (error) {
      throw loadError(error, session, key);
    }
  }

  /** Runs `load` (of a checkpoint's state); a state it rejects throws naming the key and file. */
  #adopt(load: () => void): void {
    try {
      load();
    } catch (error) {
      const { session, key } = this.#checkpointer!;
      throw loadError(error, session, key);
    }
  }

  /** `loadStateDict` without the running guard: for the call that is loading. */
  #loadState(state: JsonObject): void {
    const from = isJsonObject(state) ? renamedFrom(state, this.name, {}) : undefined;
    this.#state.load(state);
    if (from !== undefined) this.renameSpeaker(from, this.name);
  }

  /** The durable side of a call, when the agent is durable. */
  #durableRun(
    input: readonly Msg[],
    options: CallOptions,
    recovering: CheckpointCall | undefined,
  ): DurableRun | undefined {
    if (this.#checkpointer === undefined) return undefined;
    const json: JsonObject = {};
    if (options.maxIters !== undefined) json['maxIters'] = options.maxIters;
    if (options.budget !== undefined) json['budget'] = options.budget as unknown as JsonObject;
    if (options.structuredOutput !== undefined) json['structuredOutput'] = true;
    if (options.callContext !== undefined) json['callContext'] = options.callContext;
    const call = { id: newId(), input, options: json };
    const recovery = recovering && { call: recovering };
    // The state without copies of the memory's messages (see `StateModule.checkpointDict`),
    // unless a subclass overrides stateDict().
    const own = this.stateDict === AgentBase.prototype.stateDict;
    const state = own ? () => this.#state.checkpointDict() : () => this.stateDict();
    return new DurableRun(this.#checkpointer, state, call, recovery);
  }

  /** `handleInterrupt`'s reply when `error` is the call's interrupt; else `undefined`. */
  #interruptReply(error: unknown, msgs: Msg[]): (() => Observable<Msg>) | undefined {
    const interrupt = this.#interrupt;
    const interrupted =
      error instanceof InterruptedError || (interrupt !== undefined && isAbortError(error));
    if (!interrupted) return undefined;
    return () => this.handleInterrupt(interrupt ?? { source: 'system' }, msgs);
  }

  /** Delivers steered messages no call took through `doObserve`; a failure goes to the error hooks. */
  #deliverSteered(msgs: readonly Msg[]): void {
    const report = (cause: unknown): void => {
      const error = new ObserveError(this.name, 'steer()', { cause });
      this.#hooks.runError({ type: 'error', agent: this, error }).subscribe();
    };
    observeEach(msgs, `${this.name}.steer()`, (msg) => this.doObserve(msg)).subscribe({
      error: report,
    });
  }

  /** Has every hub subscriber observe `reply` (see `HubSubscribers.broadcast`), then emits it. */
  #broadcast(reply: Msg): Observable<Msg> {
    return this.#subscribers?.broadcast(reply, this, this.#hooks.runError) ?? of(reply);
  }
}

/** Throws `InvalidArgumentError` unless every steered message says something. */
function checkSteered(msgs: readonly Msg[], method: string): void {
  if (msgs.length === 0)
    throw new InvalidArgumentError(
      `${method}: no message given; pass the text to add to the call.`,
    );
  for (const msg of msgs) {
    const said = msg.content.some((block) => block.type !== 'text' || block.text.trim() !== '');
    if (!said)
      throw new InvalidArgumentError(
        `${method}: the message is empty; pass the text to add to the call.`,
      );
  }
}
