import type { IncomingMessage } from 'node:http';
import type { RunAgentInput } from '@ag-ui/core';
import { RunAgentInputSchema } from '@ag-ui/core/schemas';

/** A request the handler refuses, with the HTTP status and the message sent back. */
export class RequestRejection {
  constructor(
    readonly status: number,
    readonly message: string,
  ) {}
}

/**
 * Reads a POSTed `RunAgentInput`: at most `maxBytes` of JSON, validated with AG-UI's schema.
 * Resolves with the input, or with a `RequestRejection` (413, 400) whose message says what
 * was wrong; rejects only when the request stream itself fails.
 */
export async function readRunAgentInput(
  req: IncomingMessage,
  maxBytes: number,
): Promise<RunAgentInput | RequestRejection> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      return new RequestRejection(413, `Request body is larger than ${maxBytes} bytes.`);
    }
    chunks.push(chunk);
  }
  let json: unknown;
  try {
    json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return new RequestRejection(
      400,
      `Request body is not valid JSON (${reason}): POST an AG-UI RunAgentInput.`,
    );
  }
  const parsed = RunAgentInputSchema.safeParse(json);
  if (parsed.success) return parsed.data as RunAgentInput;
  const issues = parsed.error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(body)'}: ${issue.message}`)
    .join('; ');
  return new RequestRejection(400, `Request body is not a valid AG-UI RunAgentInput: ${issues}.`);
}
