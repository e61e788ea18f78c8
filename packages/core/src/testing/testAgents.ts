import { EMPTY, map, Observable, of, throwError, timer } from 'rxjs';
import { AgentBase, type AgentBaseOptions } from '../agent/agentBase.js';
import type { CallContext } from '../agent/callContext.js';
import { assistantMsg, type Msg } from '../message/msg.js';
import { textOf } from '../message/readers.js';

/**
 * An agent that records what it receives: the input of every call (`calls`), the signal of
 * every call (`signals`, to check cancellation) and every message it observed (`observed`).
 * Subclass it and implement `doCall` for a custom test agent.
 */
export abstract class RecordingAgent extends AgentBase {
  /** RecordingAgent adds no options; its subclasses declare theirs. */
  static override readonly optionKeys: readonly string[] = [];

  /** The input messages of each call, in call order. */
  readonly calls: Msg[][] = [];
  /** The `AbortSignal` of each call, in call order: aborted when the call was cancelled. */
  readonly signals: AbortSignal[] = [];
  /** Every message this agent observed (hub broadcasts, announcements), in order. */
  readonly observed: Msg[] = [];

  protected override doObserve(msg: Msg): Observable<void> {
    this.observed.push(msg);
    return EMPTY;
  }

  /** Records the call; subclasses call it first in `doCall`. */
  protected record(msgs: Msg[], context: CallContext): void {
    this.calls.push(msgs);
    this.signals.push(context.signal);
  }
}

/** Options of `EchoAgent`: `prefix` goes before the echoed text. */
export interface EchoAgentOptions extends AgentBaseOptions {
  readonly prefix?: string;
}

/**
 * An agent whose reply is `prefix` + the text of its input messages (joined by newlines),
 * at once and synchronously. Chained agents show the path a message took: `b:a:hi`.
 */
export class EchoAgent extends RecordingAgent {
  static override readonly optionKeys: readonly string[] = ['prefix'];

  readonly prefix: string;

  constructor(options: EchoAgentOptions) {
    super(options);
    this.prefix = options.prefix ?? '';
  }

  protected doCall(msgs: Msg[], context: CallContext): Observable<Msg> {
    this.record(msgs, context);
    return of(assistantMsg(this.prefix + msgs.map(textOf).join('\n'), { name: this.name }));
  }
}

/** Options of `FailingAgent`: the error each call fails with. */
export interface FailingAgentOptions extends AgentBaseOptions {
  readonly error?: unknown;
}

/** An agent whose every call errors with `options.error` (default: an `Error` naming the agent). */
export class FailingAgent extends RecordingAgent {
  static override readonly optionKeys: readonly string[] = ['error'];

  readonly #error: unknown;

  constructor(options: FailingAgentOptions) {
    super(options);
    this.#error = options.error ?? new Error(`${options.name} failed`);
  }

  protected doCall(msgs: Msg[], context: CallContext): Observable<Msg> {
    this.record(msgs, context);
    return throwError(() => this.#error);
  }
}

/** Options of `DelayedAgent`: `delayMs` before it replies like an `EchoAgent` with `prefix`. */
export interface DelayedAgentOptions extends EchoAgentOptions {
  readonly delayMs: number;
}

/**
 * An echo agent that replies after `delayMs` on the RxJS async scheduler, so tests drive it
 * with `vi.useFakeTimers()` or a `TestScheduler`, not with real waiting.
 */
export class DelayedAgent extends RecordingAgent {
  static override readonly optionKeys: readonly string[] = ['prefix', 'delayMs'];

  readonly delayMs: number;
  readonly prefix: string;

  constructor(options: DelayedAgentOptions) {
    super(options);
    this.delayMs = options.delayMs;
    this.prefix = options.prefix ?? '';
  }

  protected doCall(msgs: Msg[], context: CallContext): Observable<Msg> {
    this.record(msgs, context);
    return timer(this.delayMs).pipe(
      map(() => assistantMsg(this.prefix + msgs.map(textOf).join('\n'), { name: this.name })),
    );
  }
}

/**
 * An agent whose call stays pending until the test settles it with `respond(text)` or
 * `fail(error)`: for ordering and cancellation tests without timers. A call it never settles
 * never ends (unsubscribe to cancel it).
 */
export class ManualAgent extends RecordingAgent {
  static override readonly optionKeys: readonly string[] = [];

  #settle: ((outcome: Observable<Msg>) => void) | undefined;

  /** Whether a call is waiting for `respond` or `fail`. */
  get isPending(): boolean {
    return this.#settle !== undefined;
  }

  /** Ends the pending call with an assistant reply of `text`. Throws when no call is pending. */
  respond(text: string): void {
    this.#take()(of(assistantMsg(text, { name: this.name })));
  }

  /** Ends the pending call with `error`. Throws when no call is pending. */
  fail(error: unknown): void {
    this.#take()(throwError(() => error));
  }

  protected doCall(msgs: Msg[], context: CallContext): Observable<Msg> {
    this.record(msgs, context);
    return new Observable<Msg>((subscriber) => {
      const settle = (outcome: Observable<Msg>): void => {
        outcome.subscribe(subscriber);
      };
      this.#settle = settle;
      return () => {
        if (this.#settle === settle) this.#settle = undefined;
      };
    });
  }

  #take(): (outcome: Observable<Msg>) => void {
    const settle = this.#settle;
    if (settle === undefined)
      throw new Error(`ManualAgent "${this.name}" has no pending call to settle.`);
    this.#settle = undefined;
    return settle;
  }
}
