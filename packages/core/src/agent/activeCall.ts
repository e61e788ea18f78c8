import { type Observable, tap } from 'rxjs';
import type { Hook } from '../hooks/hook.js';
import type { HookEvent, HookEventType } from '../hooks/hookEvent.js';
import { runHooks } from '../hooks/runHooks.js';
import { newId } from '../internal/newId.js';
import type { Usage } from '../model/chatModel.js';
import { addUsage } from '../model/chatResponse.js';
import type { Agent } from './agent.js';
import { type AgentEvent, snapshotOf } from './agentEvent.js';
import type { CallContext } from './callContext.js';
import type { CallOptions } from './callOptions.js';

/** The hooks of an agent that want events of `type`, in dispatch order. */
export type HooksFor = (type: HookEventType) => readonly Hook[];

/**
 * The book-keeping of one in-flight call: its abort controller (linked to the caller's
 * `options.signal`), whether the caller left, and its context (system prompt, usage total,
 * hooks and `stream()` sink).
 */
export class ActiveCall {
  readonly context: ActiveCallContext;
  readonly #controller = new AbortController();
  readonly #external: AbortSignal | undefined;
  readonly #onExternalAbort = (): void => this.abort(this.#external?.reason);
  #cancelled = false;

  constructor(
    agent: Agent,
    readonly options: CallOptions,
    systemPrompt: string,
    hooksFor: HooksFor,
    readonly sink: ((event: AgentEvent) => void) | undefined,
  ) {
    this.#external = options.signal;
    if (this.#external?.aborted) this.abort(this.#external.reason);
    else this.#external?.addEventListener('abort', this.#onExternalAbort, { once: true });
    this.context = new ActiveCallContext(
      agent,
      this.#controller.signal,
      options,
      systemPrompt,
      hooksFor,
      sink,
    );
  }

  /** The call's system prompt (preCall hooks may replace it). */
  get systemPrompt(): string {
    return this.context.systemPrompt;
  }

  set systemPrompt(prompt: string) {
    this.context.systemPrompt = prompt;
  }

  /** Whether the caller unsubscribed: nothing of the call may run or be reported any more. */
  get cancelled(): boolean {
    return this.#cancelled;
  }

  /** Aborts the call's signal (no-op once aborted). */
  abort(reason: unknown): void {
    if (!this.#controller.signal.aborted) this.#controller.abort(reason);
  }

  /** Marks the call as abandoned by its caller, then aborts its signal with `reason`. */
  cancel(reason: unknown): void {
    this.#cancelled = true;
    this.abort(reason);
  }

  /** Detaches from the caller's signal. */
  dispose(): void {
    this.#external?.removeEventListener('abort', this.#onExternalAbort);
  }
}

/**
 * The `CallContext` handed to `doCall`: a small class rather than an object literal with
 * getters, which V8 keeps in dictionary mode with a closure per accessor for every call.
 */
class ActiveCallContext implements CallContext {
  readonly callId = newId();
  systemPrompt: string;
  #usage: Usage | undefined;
  readonly #hooksFor: HooksFor;
  readonly #sink: ((event: AgentEvent) => void) | undefined;

  constructor(
    readonly agent: Agent,
    readonly signal: AbortSignal,
    readonly options: CallOptions,
    systemPrompt: string,
    hooksFor: HooksFor,
    sink: ((event: AgentEvent) => void) | undefined,
  ) {
    this.systemPrompt = systemPrompt;
    this.#hooksFor = hooksFor;
    this.#sink = sink;
  }

  notify<E extends HookEvent>(event: E): Observable<E> {
    const run = runHooks(this.#hooksFor(event.type), event);
    const sink = this.#sink;
    return sink ? run.pipe(tap((final) => sink(snapshotOf(final)))) : run;
  }

  listens(type: HookEventType): boolean {
    return this.#sink !== undefined || this.#hooksFor(type).length > 0;
  }

  /** An arrow function, so a detached `addUsage` (destructured from the context) still works. */
  readonly addUsage = (usage: Usage | undefined): void => {
    this.#usage = addUsage(this.#usage, usage);
  };

  get usage(): Usage | undefined {
    return this.#usage;
  }
}
