import type { ServerResponse } from 'node:http';
import { EventEncoder } from '@ag-ui/encoder';

/**
 * Starts a server-sent event response (status 200, no caching, kept alive, headers flushed
 * at once) and returns the encoder of its AG-UI events.
 */
export function openEventStream(res: ServerResponse): EventEncoder {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  res.flushHeaders();
  return new EventEncoder({ accept: 'text/event-stream' });
}
