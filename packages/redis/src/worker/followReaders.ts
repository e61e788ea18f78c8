import type { RedisConnection } from '../connection/redisConnection.js';

/** Idle readers kept for the next follow; more are closed when given back. */
const MAX_IDLE = 4;

/**
 * The blocking-read connections a `RemoteAgent` follows its runs on. A follow takes one (an
 * idle one, else a new duplicate of the agent's connection) and gives it back when the run
 * ended between two reads, so consecutive calls reuse one connection instead of opening one
 * each (a TCP connect and handshake per call). A reader stopped while its blocking read is
 * in flight is dropped instead: its connection is still busy. Internal.
 */
export class FollowReaders {
  readonly #idle: RedisConnection[] = [];
  readonly #all = new Set<RedisConnection>();
  #closed = false;

  constructor(
    readonly source: RedisConnection,
    readonly label: string,
  ) {}

  /** A reader for one follow: give it back with `give` or `drop` when the follow ends. */
  take(): RedisConnection {
    const idle = this.#idle.pop();
    if (idle !== undefined) return idle;
    const reader = this.source.duplicate(`${this.label} (run reader)`);
    this.#all.add(reader);
    return reader;
  }

  /** Takes back a reader with no command in flight, for the next follow. */
  give(reader: RedisConnection): void {
    if (this.#closed || this.#idle.length >= MAX_IDLE) {
      this.drop(reader);
      return;
    }
    this.#idle.push(reader);
  }

  /** Closes a reader at once (a pending blocking read rejects). */
  drop(reader: RedisConnection): void {
    this.#all.delete(reader);
    void reader.destroy();
  }

  /** How many readers are open (idle or following). */
  get open(): number {
    return this.#all.size;
  }

  /** Closes every reader, idle or following; later readers given back are closed too. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#idle.length = 0;
    const readers = [...this.#all];
    this.#all.clear();
    await Promise.all(readers.map((reader) => reader.destroy()));
  }
}
