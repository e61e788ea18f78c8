import type { Observable, Observer } from 'rxjs';
import type { DurableRun } from '../durable/durableRun.js';
import { CallAbortedError, InterruptedError, isAbortError, NoReplyError } from '../errors.js';
import type { ErrorEvent, PostCallEvent, PreCallEvent } from '../hooks/hookEvent.js';
import { runErrorHooks } from '../hooks/runErrorHooks.js';
import { freezeMsg } from '../message/freezeMsg.js';
import { type Msg, withMetadata } from '../message/msg.js';
import { ActiveCallContext, type HooksFor } from './activeCallContext.js';
import type { Agent } from './agent.js';
import type { AgentEvent } from './agentEvent.js';
import type { CallOptions } from './callOptions.js';
import { type PhaseSink, Phases } from './phases.js';
import { withCallMetadata } from './withCallMetadata.js';

/** What starts an `ActiveCall`. */
export interface ActiveCallSetup {
  readonly agent: Agent;
  readonly options: CallOptions;
  readonly systemPrompt: string;
  readonly hooksFor: HooksFor;
  readonly sink: ((event: AgentEvent) => void) | undefined;
  /** The event types `sink` wants (`stream({ events })`); every type when absent. */
  readonly sinkTypes?: ReadonlySet<string> | undefined;
  /** Frees the agent's running guard; called once, before the reply or error is emitted. */
  readonly release: () => void;
  /** The durable side of the call, when the agent is durable. */
  readonly durable?: DurableRun | undefined;
  /** Whether `recover()` continues this call (`preCall.recovered`). */
  readonly recovering?: boolean;
}

/**
 * One in-flight call of an agent: its abort controller (linked to the caller's
 * `options.signal`), whether the caller left, its context (system prompt, usage total,
 * hooks and `stream()` sink), and the `Phases` that run its steps and end it. AgentBase
 * lists the steps; this holds the machinery they share.
 */
export class ActiveCall {
  readonly context: ActiveCallContext;
  readonly #phases: Phases<Msg>;
  readonly #controller = new AbortController();
  readonly #external: AbortSignal | undefined;
  readonly #onExternalAbort = (): void => this.#cancel(this.#external?.reason);
  readonly #release: () => void;
  readonly #hooksFor: HooksFor;
  readonly #recovering: boolean;
  #cancelled = false;
  #released = false;

  constructor(setup: ActiveCallSetup, subscriber: PhaseSink<Msg>) {
    const { options } = setup;
    this.#release = setup.release;
    this.#hooksFor = setup.hooksFor;
    this.#phases = new Phases(subscriber);
    this.#external = options.signal;
    this.context = new ActiveCallContext(
      setup.agent,
      this.#controller.signal,
      options,
      setup.systemPrompt,
      setup.hooksFor,
      setup.sink,
      setup.sinkTypes,
    );
    this.context.durableRun = setup.durable;
    this.#recovering = setup.recovering === true;
    // (A signal aborted already never gets here: `call()` fails with CallAbortedError first.)
    this.#external?.addEventListener('abort', this.#onExternalAbort, { once: true });
  }

  /** Where the call's event snapshots go (see `ActiveCallContext.sink`), if anywhere. */
  get sink(): ((event: AgentEvent) => void) | undefined {
    return this.context.sink;
  }

  /** Whether a `stream()` or a tap watches the call's events (hooks aside). */
  get watched(): boolean {
    return this.context.sink !== undefined || this.context.tapped;
  }

  /** The durable side of the call, when the agent is durable. */
  get durable(): DurableRun | undefined {
    return this.context.durableRun;
  }

  /** Waits for `save` (a checkpoint of the call), then runs `then`; its error goes to `onError`. */
  afterSave(save: Observable<void>, then: () => void, onError: (error: unknown) => void): void {
    this.#phases.after(save, then, onError);
  }

  /** Whether `recover()` continues this call. */
  get recovering(): boolean {
    return this.#recovering;
  }

  /** Whether the caller unsubscribed: nothing of the call may run or be reported any more. */
  get cancelled(): boolean {
    return this.#cancelled;
  }

  /** Aborts the call's signal (no-op once aborted). */
  abort(reason: unknown): void {
    if (!this.#controller.signal.aborted) this.#controller.abort(reason);
  }

  /**
   * Runs the preCall hooks, then `then` with the input as they left it (the system prompt
   * they left becomes the call's); their error goes to `onError`.
   */
  preCall(input: Msg[], onError: (error: unknown) => void, then: (msgs: Msg[]) => void): void {
    const { context } = this;
    const event: PreCallEvent = {
      type: 'preCall',
      agent: context.agent,
      input,
      systemPrompt: context.systemPrompt,
      ...(this.#recovering && { recovered: true }),
      ...(context.options.caller !== undefined && { caller: context.options.caller }),
    };
    const proceed = (pre: PreCallEvent): void => {
      context.systemPrompt = pre.systemPrompt;
      then(pre.input);
    };
    this.#phases.afterHooks(context, event, proceed, onError);
  }

  /**
   * The last Msg of `source()` to `then` (no Msg at all is a `NoReplyError`), its error to
   * `onError`; once the caller has unsubscribed, neither runs and the call just ends.
   */
  reply(
    source: () => Observable<Msg>,
    then: (reply: Msg) => void,
    onError: (error: unknown) => void,
  ): void {
    const observer = new LastReplyObserver(this, this.#phases, then, onError);
    let replies: Observable<Msg>;
    try {
      replies = source();
    } catch (error) {
      observer.error(error);
      return;
    }
    // Subscribed here, not through an Observable around it, and one observer object for
    // the reply, the error and the cancel check: a parked call holds one subscriber less
    // (and its observer, closures and teardown list).
    this.#phases.hold(replies.subscribe(observer));
  }

  /**
   * Recovers from `error`: with `interruptReply` (the error was the call's interrupt), its
   * reply, marked `interrupted` with `generateReason: 'interrupted'`, goes to `then`;
   * without, the call fails with `error`.
   */
  recover(
    error: unknown,
    interruptReply: (() => Observable<Msg>) | undefined,
    then: (reply: Msg) => void,
  ): void {
    if (interruptReply === undefined) {
      this.fail(error);
      return;
    }
    this.reply(
      interruptReply,
      (reply) => then(withMetadata(reply, { interrupted: true, generateReason: 'interrupted' })),
      (cause) => this.fail(cause),
    );
  }

  /**
   * Runs the postCall hooks on `reply` (with `generateReason` and the call's usage added
   * when missing), then `then` with the reply as they left it; their error fails the call.
   * The reply is frozen before and after the hooks (a no-op for a factory-made Msg), so the
   * caller gets a frozen Msg even from a subclass or hook that built one by hand.
   */
  postCall(reply: Msg, then: (reply: Msg) => void): void {
    const event: PostCallEvent = {
      type: 'postCall',
      agent: this.context.agent,
      reply: freezeMsg(
        withCallMetadata(
          reply,
          this.context.usage,
          this.context.steeredIds,
          this.context.usageByAgent,
        ),
      ),
    };
    this.#phases.afterHooks(
      this.context,
      event,
      (post) => then(freezeMsg(post.reply)),
      (error) => this.fail(error),
    );
  }

  /** Waits for `source` (the broadcast), then releases the guard and emits the reply. */
  finishAfter(source: Observable<Msg>): void {
    this.#phases.after(source, this.#finishWith, (error) => this.fail(error));
  }

  /** Releases the guard and emits `reply` now (nothing to broadcast it to); a throw fails the call. */
  finish(reply: Msg): void {
    this.#phases.run(this.#finishWith, reply, (error) => this.fail(error));
  }

  readonly #finishWith = (reply: Msg): void => {
    this.#releaseOnce();
    this.#phases.finish(reply);
  };

  /**
   * Runs the error hooks (each isolated), then releases the guard and errors with `error`
   * (as a `CallAbortedError` when the caller's signal aborted the call).
   */
  fail(failure: unknown): void {
    const error = this.#abortedOr(failure);
    const { callContext } = this.context;
    const event: ErrorEvent = {
      type: 'error',
      agent: this.context.agent,
      error,
      ...(callContext !== undefined && { callContext }),
    };
    const end = (): void => {
      this.context.recordError(event);
      this.#releaseOnce();
      this.#phases.fail(error);
    };
    this.#phases.after(runErrorHooks(this.#hooksFor('error'), event), end, end, end);
  }

  /**
   * The teardown: an unsubscribe before the call ended cancels it (its signal aborts first,
   * so a cancelled doCall's own teardown already sees it), then the phase in flight is
   * unsubscribed and the guard released.
   */
  close(): void {
    if (!this.#phases.settled) {
      this.#cancelled = true;
      const name = this.context.agent.name;
      this.#cancel(new DOMException(`The call to "${name}" was cancelled.`, 'AbortError'));
    }
    this.#phases.unsubscribe();
    this.#releaseOnce();
  }

  /**
   * Cancels the call (its caller unsubscribed or aborted `options.signal`): a durable call
   * saves nothing from now on, then the signal aborts, so nothing the abort sets off (a
   * tool's `[interrupted]` result, the step after it) reaches the checkpoint.
   */
  #cancel(reason: unknown): void {
    this.context.durableRun?.stop(reason);
    this.abort(reason);
  }

  /**
   * `error`, or the `CallAbortedError` it stands for when the caller's signal aborted the
   * call (the abort error of a model request or a tool, or the signal's reason itself), so
   * a call aborted by its caller fails the same way whichever step the abort cut.
   */
  #abortedOr(error: unknown): unknown {
    const external = this.#external;
    if (external?.aborted !== true || error instanceof CallAbortedError) return error;
    if (error instanceof InterruptedError) return error;
    if (error !== external.reason && !isAbortError(error)) return error;
    return new CallAbortedError(this.context.agent.name, external.reason);
  }

  #releaseOnce(): void {
    if (this.#released) return;
    this.#released = true;
    this.context.releaseTap();
    this.#external?.removeEventListener('abort', this.#onExternalAbort);
    this.#release();
  }
}

/**
 * The observer of the call's `doCall` (`ActiveCall.reply`): keeps its last Msg and, once it
 * completes, gives it to `then` (no Msg at all is a `NoReplyError`), as `Phases.after` runs a
 * phase; its error, or a throw in `then`, goes to `onError`. Once the caller has unsubscribed,
 * neither runs and the call just ends.
 */
class LastReplyObserver implements Observer<Msg> {
  // Not #private fields: with rxjs's `useDeprecatedNextContext`, methods run on a copy.
  private reply: Msg | undefined;

  constructor(
    private readonly call: ActiveCall,
    private readonly phases: Phases<Msg>,
    private readonly then: (reply: Msg) => void,
    private readonly onError: (error: unknown) => void,
  ) {}

  next(msg: Msg): void {
    this.reply = msg;
  }

  error(error: unknown): void {
    if (this.call.cancelled) this.phases.end();
    else this.onError(error);
  }

  complete(): void {
    const { reply } = this;
    if (reply === undefined) this.error(new NoReplyError(this.call.context.agent.name));
    else if (this.call.cancelled) this.phases.end();
    else this.phases.run(this.then, reply, (error) => this.error(error));
  }
}
