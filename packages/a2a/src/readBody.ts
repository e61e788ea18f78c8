import type { IncomingMessage } from 'node:http';

/** A body over the size limit. */
export class BodyTooLarge {
  constructor(readonly maxBytes: number) {}
}

/**
 * Reads a request body of at most `maxBytes` as UTF-8 text; resolves with `BodyTooLarge` as
 * soon as it grows past that (the rest is not read), and rejects only when the request
 * stream itself fails (the client went away).
 */
export async function readBody(
  req: IncomingMessage,
  maxBytes: number,
): Promise<string | BodyTooLarge> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return new BodyTooLarge(maxBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) return new BodyTooLarge(maxBytes);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
