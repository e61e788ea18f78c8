import { createHmac, randomBytes } from 'node:crypto';

/**
 * Signs the thinking a test server sends and checks what comes back, the way the real API
 * does: a signature covers the exact thinking text, and redacted data is accepted only as
 * it was issued.
 */
export class ThinkingSigner {
  readonly #key = randomBytes(16);
  readonly #redacted = new Set<string>();
  #count = 0;

  /** The signature of `thinking`. */
  sign(thinking: string): string {
    return `sig_${createHmac('sha256', this.#key).update(thinking).digest('base64')}`;
  }

  /** Whether `signature` is what this server issued for `thinking`. */
  verify(thinking: string, signature: unknown): boolean {
    return typeof signature === 'string' && signature === this.sign(thinking);
  }

  /** New opaque redacted-thinking data. */
  redact(): string {
    const data = `redacted_${++this.#count}_${this.sign(String(this.#count)).slice(4, 20)}`;
    this.#redacted.add(data);
    return data;
  }

  /** Whether `data` is redacted-thinking data this server issued. */
  issued(data: unknown): boolean {
    return typeof data === 'string' && this.#redacted.has(data);
  }
}
