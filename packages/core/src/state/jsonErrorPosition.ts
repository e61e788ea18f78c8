/** Where a JSON text first goes wrong: 0-based `offset`, 1-based `line` and `column`. */
export interface JsonErrorPosition {
  readonly offset: number;
  readonly line: number;
  readonly column: number;
}

const WHITESPACE = /^[ \t\n\r]$/;

class SyntaxAt {
  constructor(readonly offset: number) {}
}

/**
 * The position of the first syntax error in `text`, or `undefined` when it is valid JSON.
 * Node 20's `JSON.parse` names no position for many errors ("Unexpected token"), so the
 * session finds it itself to point a user at the broken line. Runs only on the error path.
 */
export function jsonErrorPosition(text: string): JsonErrorPosition | undefined {
  let offset: number;
  try {
    new JsonScanner(text).document();
    return undefined;
  } catch (error) {
    if (!(error instanceof SyntaxAt)) return undefined; // too deep to scan: no position
    offset = error.offset;
  }
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { offset, line, column: offset - before.lastIndexOf('\n') };
}

class JsonScanner {
  #pos = 0;
  constructor(readonly text: string) {}

  document(): void {
    this.#value();
    this.#space();
    if (this.#pos < this.text.length) this.#fail();
  }

  #value(): void {
    this.#space();
    const char = this.text[this.#pos];
    if (char === '{') {
      this.#object();
      return;
    }
    if (char === '[') {
      this.#array();
      return;
    }
    if (char === '"') {
      this.#string();
      return;
    }
    if (char === '-' || isDigit(char)) {
      this.#number();
      return;
    }
    for (const literal of ['true', 'false', 'null']) {
      if (this.text.startsWith(literal, this.#pos)) {
        this.#pos += literal.length;
        return;
      }
    }
    this.#fail();
  }

  #object(): void {
    this.#pos++;
    this.#space();
    if (this.#eat('}')) return;
    do {
      this.#space();
      if (this.text[this.#pos] !== '"') this.#fail();
      this.#string();
      this.#space();
      if (!this.#eat(':')) this.#fail();
      this.#value();
      this.#space();
    } while (this.#eat(','));
    if (!this.#eat('}')) this.#fail();
  }

  #array(): void {
    this.#pos++;
    this.#space();
    if (this.#eat(']')) return;
    do {
      this.#value();
      this.#space();
    } while (this.#eat(','));
    if (!this.#eat(']')) this.#fail();
  }

  #string(): void {
    this.#pos++;
    for (;;) {
      const code = this.text.charCodeAt(this.#pos);
      if (Number.isNaN(code) || code < 0x20) this.#fail();
      this.#pos++;
      if (code === 0x22) return;
      if (code !== 0x5c) continue;
      const escaped = this.text[this.#pos];
      if (escaped !== undefined && '"\\/bfnrt'.includes(escaped)) this.#pos++;
      else if (
        escaped === 'u' &&
        /^[0-9a-fA-F]{4}$/.test(this.text.slice(this.#pos + 1, this.#pos + 5))
      )
        this.#pos += 5;
      else this.#fail();
    }
  }

  #number(): void {
    this.#eat('-');
    if (!this.#eat('0')) this.#digits();
    if (this.#eat('.')) this.#digits();
    if (this.#eat('e') || this.#eat('E')) {
      if (!this.#eat('+')) this.#eat('-');
      this.#digits();
    }
  }

  #digits(): void {
    if (!isDigit(this.text[this.#pos])) this.#fail();
    while (isDigit(this.text[this.#pos])) this.#pos++;
  }

  #space(): void {
    while (WHITESPACE.test(this.text[this.#pos] ?? '')) this.#pos++;
  }

  #eat(char: string): boolean {
    if (this.text[this.#pos] !== char) return false;
    this.#pos++;
    return true;
  }

  #fail(): never {
    throw new SyntaxAt(this.#pos);
  }
}

function isDigit(char: string | undefined): boolean {
  return char !== undefined && char >= '0' && char <= '9';
}
