const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Tells, as streamed tool-call arguments arrive, when their top-level JSON object is closed,
 * by tracking nesting and strings across pieces: each character is looked at once, so a
 * call's arguments cost time linear in their length however finely they are split. It does
 * not validate the JSON (the parse that follows does); text after the closing brace makes
 * the arguments incomplete again (they cannot be one object then).
 */
export class ArgumentsScanner {
  #depth = 0;
  #opened = false;
  #inString = false;
  #escaped = false;
  #trailing = false;

  /** Whether the arguments so far are one closed top-level value. */
  get complete(): boolean {
    return this.#opened && this.#depth === 0 && !this.#trailing;
  }

  /** Scans the next piece of the arguments. */
  scan(piece: string): void {
    for (let at = 0; at < piece.length; at++) {
      const code = piece.charCodeAt(at);
      if (this.#inString) {
        if (this.#escaped) this.#escaped = false;
        else if (code === BACKSLASH) this.#escaped = true;
        else if (code === QUOTE) this.#inString = false;
        continue;
      }
      if (this.#opened && this.#depth === 0) {
        // After the closing brace only whitespace keeps the arguments one object.
        if (code > 0x20) this.#trailing = true;
        continue;
      }
      if (code === QUOTE) this.#inString = true;
      else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
        this.#depth++;
        this.#opened = true;
      } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) this.#depth--;
    }
  }
}
