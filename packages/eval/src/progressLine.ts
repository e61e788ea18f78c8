/** Where a progress line goes: a stream, redrawn in place when it is a TTY. */
export type ProgressOut = NodeJS.WritableStream & { readonly isTTY?: boolean };

/**
 * The one-line progress of an evaluation on a TTY: `eval 7/20 · 2 running · 6 passed · 3.1 s`,
 * redrawn in place (at most every 50 ms) and erased at the end. Does nothing when `out` is
 * undefined.
 */
export class ProgressLine {
  readonly #out: ProgressOut | undefined;
  readonly #total: number;
  readonly #started = performance.now();
  #done = 0;
  #running = 0;
  #passed = 0;
  #drawnAt = 0;
  #drawn = false;

  constructor(out: ProgressOut | undefined, total: number) {
    this.#out = out;
    this.#total = total;
  }

  started(): void {
    this.#running++;
    this.#draw(false);
  }

  finished(passed: boolean): void {
    this.#running--;
    this.#done++;
    if (passed) this.#passed++;
    this.#draw(this.#done === this.#total);
  }

  /** Erases the line. */
  end(): void {
    if (this.#drawn) this.#out?.write('\r\u001b[2K');
    this.#drawn = false;
  }

  #draw(force: boolean): void {
    if (this.#out === undefined) return;
    const now = performance.now();
    if (!force && now - this.#drawnAt < 50) return;
    this.#drawnAt = now;
    const seconds = ((now - this.#started) / 1000).toFixed(1);
    this.#out.write(
      `\r\u001b[2Keval ${this.#done}/${this.#total} · ${this.#running} running · ${this.#passed} passed · ${seconds} s`,
    );
    this.#drawn = true;
  }
}
