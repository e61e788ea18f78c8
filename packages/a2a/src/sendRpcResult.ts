import type { ServerResponse } from 'node:http';
import type { JsonRpcTransportHandler } from '@a2a-js/sdk/server';
import type { RxAgentExecutor } from './rxAgentExecutor.js';

type RpcResult = Awaited<ReturnType<JsonRpcTransportHandler['handle']>>;
type RpcResponse = Exclude<RpcResult, AsyncGenerator>;

/** A JSON-RPC error response. */
export function rpcError(id: string | number | null, code: number, message: string): RpcResponse {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

/** Answers `status` with `body` as JSON (unless the response already started or ended). */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/**
 * Sends what the SDK's JSON-RPC handler answered: one response as JSON, or a stream of them
 * as server-sent events (an error before the first event is sent as one JSON response; a
 * later one as an `error` event). When the client goes away mid-stream the stream is closed
 * and the task's running call interrupted.
 */
export async function sendRpcResult(
  res: ServerResponse,
  id: string | number | null,
  result: RpcResult,
  executor: RxAgentExecutor,
): Promise<void> {
  if (!isStream(result)) {
    sendJson(res, 200, result);
    return;
  }
  const iterator = result[Symbol.asyncIterator]();
  let first: IteratorResult<RpcResponse>;
  try {
    first = await iterator.next();
  } catch (error) {
    sendJson(res, 200, rpcError(id, -32603, messageOf(error)));
    return;
  }
  let taskId: string | undefined;
  let done = false;
  const onClose = (): void => {
    if (done) return;
    done = true;
    if (taskId !== undefined) executor.interruptRun(taskId);
    void iterator.return(undefined).catch(() => undefined);
  };
  res.on('close', onClose);
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.flushHeaders();
  try {
    for (let step = first; !step.done && !done; step = await iterator.next()) {
      taskId ??= taskIdOf(step.value);
      res.write(`data: ${JSON.stringify(step.value)}\n\n`);
    }
  } catch (error) {
    if (!done)
      res.write(
        `event: error\ndata: ${JSON.stringify(rpcError(id, -32603, messageOf(error)))}\n\n`,
      );
  } finally {
    done = true;
    res.off('close', onClose);
    if (!res.writableEnded) res.end();
  }
}

function isStream(result: RpcResult): result is AsyncGenerator<RpcResponse, void, undefined> {
  return (
    typeof (result as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  );
}

/** The task id a stream response names (`task.id`, `statusUpdate.taskId`, ...). */
function taskIdOf(response: RpcResponse): string | undefined {
  const result = response.result as Record<string, Record<string, unknown> | undefined> | undefined;
  const id =
    result?.['task']?.['id'] ??
    result?.['statusUpdate']?.['taskId'] ??
    result?.['artifactUpdate']?.['taskId'];
  return typeof id === 'string' && id !== '' ? id : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
