import { finished, type Readable } from 'node:stream';

/** Whether a request was aborted and why: an `AbortSignal`, or a request's own abort state. */
export interface AbortLike {
  readonly aborted: boolean;
  readonly reason: unknown;
}

/**
 * `Response` as a base class whose body members a subclass may redefine (Node's types declare
 * them as properties, which a subclass cannot turn into accessors or methods).
 */
const ResponseBase = Response as unknown as new (body: null, init: ResponseInit) => object;

/** The status line and headers of a `NodeResponse`. */
export interface NodeResponseInit {
  readonly status: number;
  readonly statusText: string;
  /**
   * The headers as Node received them (`IncomingMessage.rawHeaders`: name, value, …): the
   * `Headers` object is built from them only when something asks for `headers`.
   */
  readonly rawHeaders: readonly string[];
}

/**
 * The `Response` of `createNodeFetch`: it keeps the body as the Node readable it arrived as
 * and builds the WHATWG `ReadableStream` over it only when something asks for `body` or
 * reads it (`text()`, `json()`…), so a reader that takes the readable itself
 * (`takeNodeBody`, as `OpenAIChatModel` does for event streams) pays for no web stream, no
 * promise per chunk and no second queue.
 */
export class NodeResponse extends ResponseBase {
  readonly #source: Readable;
  readonly #signal: AbortLike | null | undefined;
  readonly #init: NodeResponseInit;
  #headers: Headers | undefined;
  /** The `Response` over a web stream, built on first use. */
  #web: Response | undefined;
  #taken = false;

  constructor(source: Readable, signal: AbortLike | null | undefined, init: NodeResponseInit) {
    // The headers are kept as given, not copied into a second `Headers` by `Response`.
    super(null, { status: init.status, statusText: init.statusText });
    this.#source = source;
    this.#signal = signal;
    this.#init = init;
  }

  get headers(): Headers {
    this.#headers ??= headersOf(this.#init.rawHeaders);
    return this.#headers;
  }

  /**
   * One header's value (repeated ones joined with `, `, as `Headers.get` gives them), read
   * from the raw list without building `headers`; `null` when absent.
   */
  header(name: string): string | null {
    if (this.#headers) return this.#headers.get(name);
    let value: string | null = null;
    const raw = this.#init.rawHeaders;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      if (raw[i]!.length === name.length && raw[i]!.toLowerCase() === name) {
        value = value === null ? raw[i + 1]! : `${value}, ${raw[i + 1]}`;
      }
    }
    return value;
  }

  get body(): ReadableStream<Uint8Array> | null {
    return this.#webResponse().body;
  }

  get bodyUsed(): boolean {
    return this.#taken || (this.#web?.bodyUsed ?? false);
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    return this.#webResponse().arrayBuffer();
  }

  blob(): Promise<Blob> {
    return this.#webResponse().blob();
  }

  formData(): Promise<FormData> {
    return this.#webResponse().formData();
  }

  json(): Promise<unknown> {
    return this.#webResponse().json();
  }

  text(): Promise<string> {
    return this.#webResponse().text();
  }

  clone(): Response {
    return this.#webResponse().clone();
  }

  /** The body's readable, once, if nothing has read the body another way yet. */
  takeSource(): Readable | undefined {
    if (this.#taken || this.#web) return undefined;
    this.#taken = true;
    return this.#source;
  }

  #webResponse(): Response {
    if (!this.#web) {
      // Taken by a reader of the readable: the body is used, as after a read of `body`.
      const body = this.#taken ? usedBody() : webBody(this.#source, this.#signal);
      const { status, statusText } = this.#init;
      this.#web = new Response(body, { status, statusText, headers: this.headers });
    }
    return this.#web;
  }
}

/** The raw header list as `Headers` (repeated ones joined, as `fetch` shows them). */
export function headersOf(raw: readonly string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  return headers;
}

/**
 * Header `name` (lower case) of `response`, without building the `Headers` of a
 * `createNodeFetch` response; `null` when absent.
 */
export function responseHeader(response: Response, name: string): string | null {
  return response instanceof NodeResponse ? response.header(name) : response.headers.get(name);
}

/** The readable behind a `createNodeFetch` response, taken once; `undefined` for any other. */
export function takeNodeBody(response: Response): Readable | undefined {
  return response instanceof NodeResponse ? response.takeSource() : undefined;
}

/** A body whose every read fails as a used body's does. */
function usedBody(): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.error(new TypeError('Body is unusable: its stream was taken by another reader'));
    },
  });
}

/**
 * A byte stream over a Node readable: chunks as they arrive, paused while the reader is
 * behind, closed at the end, errored when the stream fails or closes early (a cut
 * connection; an abort, with the signal's reason as `fetch` does), and destroying the
 * source when the reader cancels.
 */
export function webBody(
  source: Readable,
  signal: AbortLike | null | undefined,
): ReadableStream<Uint8Array> {
  let open = true;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        source.on('data', (chunk: Buffer) => {
          if (!open) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) source.pause();
        });
        finished(source, (error) => {
          if (!open) return;
          open = false;
          if (signal?.aborted) controller.error(signal.reason);
          else if (error) controller.error(error);
          else controller.close();
        });
      },
      pull() {
        source.resume();
      },
      cancel(reason) {
        open = false;
        source.destroy(reason instanceof Error ? reason : undefined);
      },
    },
    // Room for a few chunks, so a reader keeping up never pauses the socket.
    { highWaterMark: 16 },
  );
}
