import type { IncomingMessage } from 'node:http';
import type { RunAgentInput } from '@ag-ui/core';
import { RunAgentInputSchema } from '@ag-ui/core/schemas';
import { exceedsJsonDepth } from '@rxagent/core';
import { RequestRejection } from './requestRejection.js';

/** How much of a client's request `readRunAgentInput` accepts. */
export interface InputLimits {
  readonly maxBodyBytes: number;
  readonly maxInputDepth: number;
}

/**
 * How many bytes past `maxBodyBytes`, as a multiple of it, are read and discarded before an
 * oversized body is answered; past that the connection is dropped without reading on.
 */
const DRAIN_FACTOR = 16;

/**
 * Reads a POSTed `RunAgentInput`: at most `maxBodyBytes` of JSON, nested at most
 * `maxInputDepth` levels (checked on the text, before anything parses it recursively;
 * tool-call arguments, JSON in a string, are held to the same depth), validated with
 * AG-UI's schema. Resolves with the input, or with a `RequestRejection` (413, 400) whose
 * message says what was wrong; rejects only when the request stream itself fails.
 *
 * An oversized body is read to its end and discarded (so the client, which is still
 * uploading, reads the 413 instead of a reset connection), up to `DRAIN_FACTOR` times the
 * limit; the 413 always closes the connection.
 */
export async function readRunAgentInput(
  req: IncomingMessage,
  limits: InputLimits,
): Promise<RunAgentInput | RequestRejection> {
  const body = await readBody(req, limits.maxBodyBytes);
  if (body instanceof RequestRejection) return body;
  const text = body.toString('utf8');
  if (exceedsJsonDepth(text, limits.maxInputDepth)) return tooDeep('Request body', limits);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return new RequestRejection(
      400,
      `Request body is not valid JSON (${reason}): POST an AG-UI RunAgentInput.`,
    );
  }
  const parsed = RunAgentInputSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 5)
      .map(
        (issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(body)'}: ${issue.message}`,
      )
      .join('; ');
    return new RequestRejection(400, `Request body is not a valid AG-UI RunAgentInput: ${issues}.`);
  }
  const input = parsed.data as RunAgentInput;
  return tooDeepArguments(input, limits) ?? input;
}

function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer | RequestRejection> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const tooLarge = (close: boolean): RequestRejection =>
      new RequestRejection(
        413,
        `Request body is larger than ${maxBytes} bytes (maxBodyBytes): send a shorter RunAgentInput.`,
        close,
      );
    const settle = (value: Buffer | RequestRejection | Error): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
      if (value instanceof Error) reject(value);
      else resolve(value);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
      else if (chunks.length > 0) chunks.length = 0;
      if (size > maxBytes * (DRAIN_FACTOR + 1)) {
        // Not worth reading on: answer now; the connection closes after the answer.
        req.pause();
        settle(tooLarge(true));
      }
    };
    const onEnd = (): void =>
      settle(size > maxBytes ? tooLarge(true) : Buffer.concat(chunks, size));
    const onError = (error: Error): void => settle(error);
    const onClose = (): void => {
      if (!req.complete) settle(new Error('The client closed the request before its body ended.'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

function tooDeep(what: string, limits: InputLimits): RequestRejection {
  return new RequestRejection(
    400,
    `${what} is nested more than ${limits.maxInputDepth} levels deep (maxInputDepth): flatten it, or raise the limit.`,
  );
}

/** Tool-call arguments are JSON in a string: a client may read them back with `JSON.parse`. */
function tooDeepArguments(input: RunAgentInput, limits: InputLimits): RequestRejection | undefined {
  for (const [m, message] of input.messages.entries()) {
    if (message.role !== 'assistant') continue;
    for (const [c, call] of (message.toolCalls ?? []).entries()) {
      if (exceedsJsonDepth(call.function.arguments, limits.maxInputDepth)) {
        return tooDeep(`messages.${m}.toolCalls.${c}.function.arguments`, limits);
      }
    }
  }
  return undefined;
}
