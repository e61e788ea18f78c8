import { finished } from 'node:stream';
import { takeNodeBody } from './nodeResponse.js';

type ReadResult = Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']>>;

/** Where `readBody` delivers a response body. */
export interface BodySink {
  /** Each chunk of bytes as it arrives; a throw ends the reading with that error. */
  bytes(chunk: Uint8Array): void;
  /** Once: at the end of the body, or with the error that ended it. */
  end(error?: unknown): void;
}

/**
 * Reads a response body push-style into `sink`, with no async iterator and no promise per
 * chunk where it can: the Node readable of a `createNodeFetch` response is read through its
 * `data` events; any other `fetch`'s body through its reader. Returns a function that stops
 * reading and releases the body (the connection is closed); after it, `sink` hears nothing.
 */
export function readBody(response: Response, sink: BodySink): () => void {
  const source = takeNodeBody(response);
  let open = true;
  const end = (error?: unknown) => {
    if (!open) return;
    open = false;
    sink.end(error);
  };
  if (source) {
    const onData = (chunk: Buffer) => {
      if (!open) return;
      try {
        sink.bytes(chunk);
      } catch (error) {
        source.destroy();
        end(error);
      }
    };
    source.on('data', onData);
    const stopWatching = finished(source, (error) => end(error ?? undefined));
    return () => {
      if (!open) return;
      open = false;
      stopWatching();
      source.off('data', onData);
      source.destroy();
    };
  }
  const reader = response.body?.getReader();
  if (!reader) {
    end(new TypeError('The response has no body to stream'));
    return () => {};
  }
  const step = (result: ReadResult): void => {
    if (!open) return;
    if (result.done) {
      end();
      return;
    }
    try {
      sink.bytes(result.value);
    } catch (error) {
      reader.cancel().catch(() => {});
      end(error);
      return;
    }
    reader.read().then(step, end);
  };
  reader.read().then(step, end);
  return () => {
    if (!open) return;
    open = false;
    reader.cancel().catch(() => {});
  };
}
