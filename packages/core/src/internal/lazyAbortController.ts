/**
 * An abort controller whose `AbortSignal` is created only when someone asks for it. Node 20
 * builds every signal as a transferable platform object (about 4 µs and a weakly held
 * native peer each), while most tool runs finish without their tool ever reading the
 * signal. Aborting before the signal exists records the reason; a signal created later is
 * born aborted with it, so a late reader sees exactly what an early one would have seen.
 */
export class LazyAbortController {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;

  /** The signal, created on first access (already aborted if `abort()` ran before). */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** Aborts with `reason`; only the first call counts, as with `AbortController`. */
  abort(reason?: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }
}
