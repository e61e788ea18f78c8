import { ModelError } from '@rxagent/core';
import { quoteBody } from './quoteBody.js';
import { readText } from './readText.js';

/** How much of a wrong body is read to quote it; the rest is never read. */
const HEAD_BYTES = 4_096;

/**
 * The `ModelError` for a 200 answer to a streaming request whose body is not an event
 * stream (a JSON error, an HTML page): reads at most 4 KB of the body, cancels the rest,
 * and quotes the server's `error.message` or the start of the text. `where` names the
 * model and server ("Model "x" at http://…").
 */
export async function notAnEventStream(
  response: Response,
  type: string,
  where: string,
): Promise<ModelError> {
  const head = await readText(response, HEAD_BYTES);
  let quoted = quoteBody(head);
  try {
    const message = (JSON.parse(head) as { error?: { message?: unknown } } | null)?.error?.message;
    if (typeof message === 'string') quoted = quoteBody(message);
  } catch {
    // Not JSON (or cut at 4 KB): quote the text itself.
  }
  return new ModelError(
    `${where} answered a streaming request with status 200 and content-type ${quoteBody(type, 100)}, not an event stream: ${quoted || '(empty body)'}`,
  );
}
