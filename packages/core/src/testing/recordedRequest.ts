import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { JsonObject } from '../json.js';
import type { CacheUsage } from './promptCache.js';

/** One `POST /v1/chat/completions` the strict server received, and how it was answered. */
export interface RecordedRequest {
  /** The parsed JSON body (`{}` when it was not a JSON object). */
  readonly body: JsonObject;
  /** The request headers (lower-cased names), e.g. to check `authorization`. */
  readonly headers: Readonly<IncomingHttpHeaders>;
  /** Whether the body asked for `stream: true`. */
  readonly stream: boolean;
  /** The HTTP status of the response; `0` while none has started, or when the connection was reset or aborted first. */
  readonly status: number;
  /** Why the request was answered 400, when it was. */
  readonly rejection?: string;
  /** Whether the client closed the connection before the response ended. */
  readonly aborted: boolean;
  /** What the simulated prompt cache reported for it; absent for a request that never reached the model (rejected, or a scripted error status). */
  readonly cache?: CacheUsage;
  /** Resolves when the response ended, was reset, or was aborted. */
  readonly done: Promise<void>;
}

/** The server's live record of one exchange; it aborts `signal` when the exchange ends. */
export class Recording implements RecordedRequest {
  readonly stream: boolean;
  readonly done: Promise<void>;
  rejection?: string;
  cache?: CacheUsage;
  readonly #controller = new AbortController();
  readonly #res: ServerResponse;
  #endedByServer = false;
  #aborted = false;

  constructor(
    readonly body: JsonObject,
    readonly headers: Readonly<IncomingHttpHeaders>,
    res: ServerResponse,
  ) {
    this.stream = body.stream === true;
    this.#res = res;
    this.done = new Promise((resolve) => {
      res.once('close', () => {
        this.#aborted = !res.writableFinished && !this.#endedByServer;
        this.#controller.abort(new Error('The exchange ended before the reply was complete.'));
        resolve();
      });
    });
  }

  get status(): number {
    return this.#res.headersSent ? this.#res.statusCode : 0;
  }

  get aborted(): boolean {
    return this.#aborted;
  }

  /** Aborts when the client disconnects or the server ends the exchange. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Ends the exchange from the server side (scripted reset or `close()`); not a client abort. */
  reset(): void {
    this.#endedByServer = true;
    this.#controller.abort(new Error('The server reset the connection.'));
    this.#res.socket?.destroy();
  }
}
