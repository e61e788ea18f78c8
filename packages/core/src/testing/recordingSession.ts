import { SEGMENT_SEPARATOR } from '../durable/segments.js';
import type { JsonObject } from '../json.js';
import { InMemorySession } from '../state/inMemorySession.js';
import type { SaveOptions } from '../state/versionedSession.js';

/**
 * An `InMemorySession` that keeps every durable checkpoint saved into it, so a test can
 * restart a durable agent from any of them, as a process that died right after that save
 * would find the session: `saves` holds each checkpoint head (a JSON copy), `stores`
 * everything the session held once that head was saved (its segments too), and
 * `restoreInto(session, index)` puts that back into another session.
 *
 * @example
 * ```ts
 * const session = new RecordingSession();
 * // ... run a durable agent on `session`, then restart from its third checkpoint:
 * const restarted = new InMemorySession();
 * if (session.saves.length > 2) await session.restoreInto(restarted, 2);
 * ```
 */
export class RecordingSession extends InMemorySession {
  /** Each checkpoint head saved, oldest first (JSON copies). */
  readonly saves: JsonObject[] = [];
  /** What the session held right after each head in `saves` was saved, by key. */
  readonly stores: Map<string, JsonObject>[] = [];

  override async save(key: string, state: JsonObject, options?: SaveOptions): Promise<void> {
    await super.save(key, state, options);
    // A segment is saved before the head that refers to it: a snapshot at each head.
    if (key.includes(SEGMENT_SEPARATOR)) return;
    this.saves.push(JSON.parse(JSON.stringify(state)) as JsonObject);
    const store = new Map<string, JsonObject>();
    for (const stored of await this.list()) {
      const value = await this.load(stored);
      if (value !== undefined) store.set(stored, value);
    }
    this.stores.push(store);
  }

  /**
   * Saves into `into` what this session held after head save `index` (from 0): the
   * segments first, then the heads, as a checkpoint writes them.
   */
  async restoreInto(into: InMemorySession, index: number): Promise<void> {
    const store = this.stores[index];
    if (store === undefined) {
      throw new RangeError(
        `RecordingSession.restoreInto(): no save ${index}; ${this.stores.length} were recorded.`,
      );
    }
    for (const [key, value] of store)
      if (key.includes(SEGMENT_SEPARATOR)) await into.save(key, value);
    for (const [key, value] of store)
      if (!key.includes(SEGMENT_SEPARATOR)) await into.save(key, value);
  }
}
