import type { Observable } from 'rxjs';
import type { JsonObject } from '../json.js';
import type { Msg } from '../message/msg.js';
import type { LoadStateOptions } from '../state/stateOwner.js';
import type { CallInput, CallOptions, InterruptContext } from './callOptions.js';

/**
 * What hooks, tools and pipelines may use of an agent: who it is, calling it, letting it
 * listen, interrupting it, and its state. `AgentBase` implements it; hook events and tool
 * contexts are typed with it so they never depend on the class that runs them.
 */
export interface Agent {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  /** Whether a call is in flight. */
  readonly isRunning: boolean;
  /** Runs one call: cold, emits one reply Msg and completes, or errors. A string is a user message. */
  call(input?: CallInput, options?: CallOptions): Observable<Msg>;
  /** `call()` as a Promise: resolves with the reply, rejects with the call's error. */
  reply(input?: CallInput, options?: CallOptions): Promise<Msg>;
  /** Receives messages without replying: cold, emits one `undefined`, then completes. */
  observe(input: Msg | readonly Msg[]): Observable<void>;
  /** Asks the running call to stop (cooperative). */
  interrupt(message?: Msg, source?: InterruptContext['source']): void;
  /** The agent's whole state, JSON-only. */
  stateDict(): JsonObject;
  /**
   * Restores a state from `stateDict()`; one saved by an agent of another name needs
   * `{ rename: true }`.
   */
  loadStateDict(state: JsonObject, options?: LoadStateOptions): void;
}
