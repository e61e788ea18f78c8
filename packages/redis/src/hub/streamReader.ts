import { backoffDelay } from '../connection/backoff.js';
import type { RedisConnection } from '../connection/redisConnection.js';
import { type ForeignEntry, parseEntries, type StreamEntry } from './streamEntry.js';

/** What a `StreamReader` calls back into. */
export interface StreamReaderHandlers {
  /** Delivers one entry; the reader moves past it once this resolves (it must not reject). */
  deliver(entry: StreamEntry): Promise<readonly string[]>;
  /** Called after an entry was delivered (to `to`) and the position write was attempted. */
  delivered(entry: StreamEntry, to: readonly string[]): void;
  /** Persists the position (the id of the last delivered entry). */
  persist(id: string): Promise<void>;
  /** A read, persist or parse problem; the reader retries with backoff. */
  report(error: unknown): void;
}

const BATCH = '100';

/**
 * The read loop of one hub: a blocking XREAD on its own connection from the last delivered
 * id, each entry delivered in stream order and the position persisted after it. On any
 * connection error it waits (exponential backoff, 50 ms to 1 s) and reads again from the
 * last delivered id, so a reconnect neither skips nor repeats an entry. Internal.
 */
export class StreamReader {
  #lastId: string;
  #unsaved = false;
  #stopped = false;
  #wake: (() => void) | undefined;
  #timer: NodeJS.Timeout | undefined;
  readonly #done: Promise<void>;

  constructor(
    readonly connection: RedisConnection,
    readonly topic: string,
    from: string,
    readonly blockMs: number,
    readonly handlers: StreamReaderHandlers,
  ) {
    this.#lastId = from;
    this.#done = this.#loop();
  }

  /** The id of the last entry delivered (or the starting position). */
  get lastId(): string {
    return this.#lastId;
  }

  /** Stops reading: the blocking read is dropped, a pending backoff cleared. Resolves when the loop has ended. */
  stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#wake?.();
    return Promise.all([this.connection.destroy(), this.#done]).then(() => undefined);
  }

  async #loop(): Promise<void> {
    let attempt = 0;
    while (!this.#stopped) {
      try {
        if (this.#unsaved) await this.#persist();
        const entries = await this.#read();
        attempt = 0;
        for (const entry of entries) {
          if (this.#stopped) return;
          await this.#handle(entry);
        }
      } catch (error) {
        if (this.#stopped) return;
        this.handlers.report(error);
        await this.#pause(backoffDelay(attempt++));
      }
    }
  }

  async #read(): Promise<Array<StreamEntry | ForeignEntry>> {
    const reply = await this.connection.command(
      ['XREAD', 'COUNT', BATCH, 'BLOCK', String(this.blockMs), 'STREAMS', this.topic, this.#lastId],
      `reading hub topic ${JSON.stringify(this.topic)}`,
      this.blockMs,
    );
    return parseEntries(reply, this.topic);
  }

  async #handle(entry: StreamEntry | ForeignEntry): Promise<void> {
    const to = 'error' in entry ? undefined : await this.handlers.deliver(entry);
    if ('error' in entry) this.handlers.report(entry.error);
    this.#lastId = entry.id;
    this.#unsaved = true;
    try {
      await this.#persist();
    } finally {
      if (to !== undefined && !('error' in entry)) this.handlers.delivered(entry, to);
    }
  }

  async #persist(): Promise<void> {
    await this.handlers.persist(this.#lastId);
    this.#unsaved = false;
  }

  #pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.#wake = resolve;
      this.#timer = setTimeout(resolve, ms);
    });
  }
}
