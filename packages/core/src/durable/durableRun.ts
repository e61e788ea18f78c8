import { Observable } from 'rxjs';
import type { JsonObject } from '../json.js';
import type { Msg } from '../message/msg.js';
import type { CheckpointCall, RunStatus } from './checkpoint.js';
import type { Checkpointer } from './checkpointer.js';

/** What a call being recovered continues from. */
export interface Recovery {
  readonly call: CheckpointCall;
}

/**
 * The durable side of one call: it saves the agent's state with the call's progress at the
 * call's start, at each step boundary the subclass marks (`context.checkpoint(progress)`)
 * and at its end (marked finished), one checkpoint each (see `Checkpointer`), in order. Once a save failed
 * (a `SessionConflictError`: another process advanced the run), every later checkpoint of
 * the call fails with that error at once, so the call does nothing more.
 *
 * Once the call is cancelled (`stop`: its caller unsubscribed or aborted its signal), it
 * saves nothing more, not even a checkpoint asked for before and still waiting its turn:
 * the stored checkpoint stays as it was at the last boundary, for a `recover()` to continue
 * (a tool running then stays *started*, so it is in doubt there).
 */
export class DurableRun {
  readonly #checkpointer: Checkpointer;
  readonly #stateDict: () => JsonObject;
  readonly #id: string;
  readonly #input: readonly Msg[];
  readonly #options: JsonObject;
  readonly #recoveries: number;
  /** The progress the recovered checkpoint held (until the call records its own). */
  readonly recovered: JsonObject | undefined;
  #progress: JsonObject | undefined;
  #failure: { readonly error: unknown } | undefined;

  constructor(
    checkpointer: Checkpointer,
    stateDict: () => JsonObject,
    call: { readonly id: string; readonly input: readonly Msg[]; readonly options: JsonObject },
    recovery: Recovery | undefined,
  ) {
    this.#checkpointer = checkpointer;
    this.#stateDict = stateDict;
    this.#id = recovery?.call.id ?? call.id;
    this.#input = recovery?.call.input ?? call.input;
    this.#options = recovery?.call.options ?? call.options;
    this.#recoveries = recovery ? recovery.call.recoveries + 1 : 0;
    this.recovered = recovery?.call.progress;
    this.#progress = this.recovered;
  }

  /**
   * Whether the call may save no more: a save of it failed (the run is no longer this
   * process's), or it was stopped.
   */
  get failed(): boolean {
    return this.#failure !== undefined;
  }

  /**
   * Stops the call's saves (its caller left): every later checkpoint fails at once with
   * `reason`, and one still queued behind another's save is dropped. Call it before
   * aborting the call's signal, so nothing the abort sets off is saved.
   */
  stop(reason: unknown): void {
    this.#failure ??= { error: reason };
  }

  /** Whether the call may still save (a queued save checks it when its turn comes). */
  readonly #live = (): boolean => this.#failure === undefined;

  /**
   * Saves the state with `progress` (the subclass's record of where the call is). Cold;
   * emits one `undefined` once saved, then completes; errors with the save's error, or at
   * once with the error of an earlier failed save. Unsubscribing does not undo a save.
   */
  checkpoint(progress: JsonObject | undefined): Observable<void> {
    return this.#save('running', progress);
  }

  /** Saves the call marked finished, with its reply (none when it failed). */
  finish(reply?: Msg): Observable<void> {
    return this.#save('finished', this.#progress, reply);
  }

  #save(status: RunStatus, progress: JsonObject | undefined, reply?: Msg): Observable<void> {
    return new Observable<void>((subscriber) => {
      if (this.#failure) {
        subscriber.error(this.#failure.error);
        return;
      }
      this.#progress = progress;
      const call: CheckpointCall = {
        id: this.#id,
        status,
        input: this.#input,
        options: this.#options,
        ...(progress !== undefined && { progress }),
        recoveries: this.#recoveries,
        ...(reply !== undefined && { reply }),
      };
      const checkpoint = { state: this.#stateDict(), call };
      let saved: boolean;
      try {
        // An InMemorySession saves at once: no promise, and the value at once, as a call
        // that is not durable gets it.
        saved = this.#checkpointer.saveNow(checkpoint);
      } catch (error) {
        this.#failure ??= { error };
        subscriber.error(error);
        return;
      }
      if (saved) {
        subscriber.next(undefined);
        subscriber.complete();
        return;
      }
      this.#checkpointer.save(checkpoint, this.#live).then(
        (saved) => {
          // Stopped while it waited its turn: dropped, not saved.
          if (!saved && this.#failure) subscriber.error(this.#failure.error);
          else {
            subscriber.next(undefined);
            subscriber.complete();
          }
        },
        (error: unknown) => {
          this.#failure ??= { error };
          subscriber.error(error);
        },
      );
    });
  }
}
