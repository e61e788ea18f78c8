import type { ServerResponse } from 'node:http';

/** A request the handler refuses, with the HTTP status and the message sent back. */
export class RequestRejection {
  constructor(
    readonly status: number,
    readonly message: string,
    /** Answer with `Connection: close` (the connection is not reused). */
    readonly close = false,
  ) {}
}

/**
 * Answers `res` with the rejection's status and message (plain text), closing the connection
 * when the rejection says so; a response already streaming is destroyed instead.
 */
export function sendRejection(res: ServerResponse, rejection: RequestRejection): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(rejection.status, {
    'content-type': 'text/plain; charset=utf-8',
    ...(rejection.close && { connection: 'close' }),
  });
  res.end(`${rejection.message}\n`);
}
