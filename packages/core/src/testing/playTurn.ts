import { asyncScheduler, type Subscriber, type Subscription, type TeardownLogic } from 'rxjs';
import type { ChatChunk } from '../model/chatModel.js';
import { abortError, scriptedError } from './turnErrors.js';
import type { TurnPlan } from './turnPlan.js';

/**
 * Streams `plan` to `subscriber`, the engine of `ScriptedChatModel`: thinking chunks, text
 * chunks, per tool call a head delta (index, id, name) then its argument fragments, then one
 * chunk with usage and `finishReason`, and completes. `delayMs` is waited before the first
 * chunk and `chunkDelayMs` between chunks (on the async scheduler, so `TestScheduler` and
 * fake timers drive them); a scripted `error` ends the stream with a `ModelError` after
 * `afterChunks` chunks; `signal` aborting ends it with an `AbortError`. Chunks are built one
 * at a time as they are sent, with no operator chain, so a turn costs one object per chunk.
 * Returns the teardown, which cancels a pending delay and the abort listener.
 */
export function playTurn(
  plan: TurnPlan,
  subscriber: Subscriber<ChatChunk>,
  signal: AbortSignal | undefined,
): TeardownLogic {
  return new TurnPlayer(plan, subscriber, signal).start();
}

class TurnPlayer {
  readonly #plan: TurnPlan;
  readonly #subscriber: Subscriber<ChatChunk>;
  readonly #signal: AbortSignal | undefined;
  /** How many chunks are sent: all of them, or those before a scripted error. */
  readonly #played: number;
  #sent = 0;
  /** The tool call being streamed and its next fragment (-1: its head delta). */
  #call = 0;
  #fragment = -1;
  #delay: Subscription | undefined;

  constructor(plan: TurnPlan, subscriber: Subscriber<ChatChunk>, signal: AbortSignal | undefined) {
    this.#plan = plan;
    this.#subscriber = subscriber;
    this.#signal = signal;
    const total = chunkCount(plan);
    this.#played = plan.error ? sliceLength(total, plan.error.afterChunks ?? 0) : total;
  }

  start(): TeardownLogic {
    this.#signal?.addEventListener('abort', this.#onAbort, { once: true });
    if (this.#plan.delayMs > 0) this.#wait(this.#plan.delayMs);
    else this.#send();
    return this.#teardown;
  }

  readonly #onAbort = (): void => {
    this.#subscriber.error(abortError(this.#signal));
  };

  readonly #teardown = (): void => {
    this.#signal?.removeEventListener('abort', this.#onAbort);
    this.#delay?.unsubscribe();
    this.#delay = undefined;
  };

  #wait(delayMs: number): void {
    this.#delay = asyncScheduler.schedule(() => {
      this.#delay = undefined;
      this.#send(true);
    }, delayMs);
  }

  /** Sends chunks until a chunk delay is due, the subscriber is closed, or the turn ends. */
  #send(waited = false): void {
    const subscriber = this.#subscriber;
    const { chunkDelayMs } = this.#plan;
    while (!subscriber.closed && this.#sent < this.#played) {
      if (this.#sent > 0 && chunkDelayMs > 0 && !waited) {
        this.#wait(chunkDelayMs);
        return;
      }
      waited = false;
      subscriber.next(this.#nextChunk());
    }
    if (subscriber.closed) return;
    const { error } = this.#plan;
    if (error) subscriber.error(scriptedError(error.status, error.message));
    else subscriber.complete();
  }

  #nextChunk(): ChatChunk {
    const { thinking, text, toolCalls } = this.#plan;
    const position = this.#sent++;
    if (position < thinking.length) return { thinking: thinking[position]! };
    if (position < thinking.length + text.length) {
      return { text: text[position - thinking.length]! };
    }
    const index = this.#call;
    const call = toolCalls[index];
    if (!call) return { usage: this.#plan.usage, finishReason: this.#plan.finishReason };
    const fragment = this.#fragment++;
    if (this.#fragment >= call.fragments.length) {
      this.#call++;
      this.#fragment = -1;
    }
    if (fragment < 0) return { toolCalls: [{ index, id: call.id, name: call.name }] };
    return { toolCalls: [{ index, arguments: call.fragments[fragment]! }] };
  }
}

function chunkCount(plan: TurnPlan): number {
  let count = plan.thinking.length + plan.text.length + 1;
  for (const call of plan.toolCalls) count += 1 + call.fragments.length;
  return count;
}

/** The length of `Array.prototype.slice(0, end)` on `total` items (a negative end counts back). */
function sliceLength(total: number, end: number): number {
  const at = Math.trunc(end);
  return at < 0 ? Math.max(total + at, 0) : Math.min(at, total);
}
