import type { IncomingMessage } from 'node:http';
import { exceedsJsonDepth } from '@rxagent/core';
import { invalidMessageParams } from './invalidMessageParams.js';
import { BodyTooLarge, readBody } from './readBody.js';
import { rpcError } from './sendRpcResult.js';

/** The limits a request body is read under. */
export interface RequestLimits {
  readonly maxBodyBytes: number;
  readonly maxInputDepth: number;
}

/** A JSON-RPC request the SDK may handle: its body and its id. */
export interface RpcRequest {
  readonly body: Record<string, unknown>;
  readonly id: string | number | null;
}

/** A request refused before the SDK sees it: the HTTP status and the JSON-RPC error sent. */
export interface RpcRefusal {
  readonly status: number;
  readonly error: ReturnType<typeof rpcError>;
  /** Answer with `Connection: close` (the rest of the body was not read). */
  readonly close?: boolean;
}

/**
 * Reads and checks a JSON-RPC request body, in this order: its size (`maxBodyBytes`, -32600
 * with HTTP 413), JSON (-32700), the JSON-RPC envelope (-32600), its nesting (deeper than
 * `maxInputDepth`, the body being level 1: -32602), and the message of a send (-32602, see
 * `invalidMessageParams`). Errors other than the size one are HTTP 200, as JSON-RPC over
 * HTTP answers them. The depth is checked on the text before anything walks the parsed value
 * recursively (the SDK's message decoding does), so no body can exhaust the stack.
 */
export async function readRpcRequest(
  req: IncomingMessage,
  limits: RequestLimits,
): Promise<RpcRequest | RpcRefusal> {
  const text = await readBody(req, limits.maxBodyBytes);
  if (text instanceof BodyTooLarge) {
    const message = `Request body is larger than ${text.maxBytes} bytes.`;
    return { status: 413, error: rpcError(null, -32600, message), close: true };
  }
  let body: unknown;
  try {
    // JSON.parse itself does not recurse on the stack, whatever the nesting.
    body = JSON.parse(text);
  } catch (error) {
    const message = `Request body is not valid JSON: ${messageOf(error)}`;
    return { status: 200, error: rpcError(null, -32700, message) };
  }
  const invalid = invalidRequest(body);
  if (invalid !== undefined) {
    const id = isRecord(body) && isId(body['id']) ? body['id'] : null;
    return { status: 200, error: rpcError(id, -32600, invalid) };
  }
  const request = body as Record<string, unknown>;
  const id = (request['id'] ?? null) as string | number | null;
  if (exceedsJsonDepth(text, limits.maxInputDepth)) {
    const message = `Request body nests arrays and objects deeper than ${limits.maxInputDepth} levels (the body being level 1).`;
    return { status: 200, error: rpcError(id, -32602, message) };
  }
  const badMessage = invalidMessageParams(request['method'] as string, request['params']);
  if (badMessage !== undefined) return { status: 200, error: rpcError(id, -32602, badMessage) };
  return { body: request, id };
}

/** Whether `read` is a refusal. */
export function isRefusal(read: RpcRequest | RpcRefusal): read is RpcRefusal {
  return 'status' in read;
}

/** Why `body` is not a JSON-RPC 2.0 request, or `undefined` when it is one. */
function invalidRequest(body: unknown): string | undefined {
  if (!isRecord(body))
    return 'The body must be one JSON-RPC 2.0 request object (batches are not supported).';
  if (body['jsonrpc'] !== '2.0') return 'The request must have "jsonrpc": "2.0".';
  if (typeof body['method'] !== 'string' || body['method'] === '')
    return 'The request must name its "method" as a string.';
  if ('id' in body && !isId(body['id']))
    return 'The request "id" must be a string, an integer or null.';
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isId(value: unknown): value is string | number | null {
  return value === null || typeof value === 'string' || Number.isInteger(value);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
