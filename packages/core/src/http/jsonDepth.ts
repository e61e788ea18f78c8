/**
 * Whether the JSON text `text` nests arrays and objects deeper than `maxDepth` levels (the
 * outermost array or object is level 1). One linear pass over the characters, with no
 * recursion and no parsing, so it is safe on any input of any depth: run it before
 * anything parses, validates or re-serialises a client's JSON recursively.
 *
 * Brackets inside strings do not count; the text is not otherwise checked (a malformed
 * text is reported by `JSON.parse` afterwards).
 */
export function exceedsJsonDepth(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === BACKSLASH) i++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) {
      inString = true;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      depth++;
      if (depth > maxDepth) return true;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
