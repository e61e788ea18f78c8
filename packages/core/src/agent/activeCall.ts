import { newId } from '../internal/newId.js';
import type { Usage } from '../model/chatModel.js';
import { addUsage } from '../model/chatResponse.js';
import type { AgentEvent } from './agentEvent.js';
import type { CallContext, CallOptions } from './callContext.js';

/**
 * The book-keeping of one in-flight call: its abort controller (linked to the caller's
 * `options.signal`), whether the caller left, its system prompt, its usage total and its
 * `stream()` sink.
 */
export class ActiveCall {
  readonly context: ActiveCallContext;
  readonly #controller = new AbortController();
  readonly #external: AbortSignal | undefined;
  readonly #onExternalAbort = (): void => this.abort(this.#external?.reason);
  #cancelled = false;

  constructor(
    readonly options: CallOptions,
    systemPrompt: string,
    readonly sink: ((event: AgentEvent) => void) | undefined,
  ) {
    this.#external = options.signal;
    if (this.#external?.aborted) this.abort(this.#external.reason);
    else this.#external?.addEventListener('abort', this.#onExternalAbort, { once: true });
    this.context = new ActiveCallContext(this.#controller.signal, options, systemPrompt);
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

  constructor(
    readonly signal: AbortSignal,
    readonly options: CallOptions,
    systemPrompt: string,
  ) {
    this.systemPrompt = systemPrompt;
  }

  /** An arrow function, so a detached `addUsage` (destructured from the context) still works. */
  readonly addUsage = (usage: Usage | undefined): void => {
    this.#usage = addUsage(this.#usage, usage);
  };

  get usage(): Usage | undefined {
    return this.#usage;
  }
}
