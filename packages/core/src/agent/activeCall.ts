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
  readonly context: CallContext;
  systemPrompt: string;
  readonly #controller = new AbortController();
  readonly #external: AbortSignal | undefined;
  readonly #onExternalAbort = (): void => this.abort(this.#external?.reason);
  #usage: Usage | undefined;
  #cancelled = false;

  constructor(
    readonly options: CallOptions,
    systemPrompt: string,
    readonly sink: ((event: AgentEvent) => void) | undefined,
  ) {
    this.systemPrompt = systemPrompt;
    this.#external = options.signal;
    if (this.#external?.aborted) this.abort(this.#external.reason);
    else this.#external?.addEventListener('abort', this.#onExternalAbort, { once: true });
    const call = this;
    this.context = {
      callId: newId(),
      signal: this.#controller.signal,
      options,
      get systemPrompt() {
        return call.systemPrompt;
      },
      addUsage(usage) {
        call.#usage = addUsage(call.#usage, usage);
      },
      get usage() {
        return call.#usage;
      },
    };
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
