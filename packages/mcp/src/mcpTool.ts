import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  ErrorCode,
  McpError,
  type Tool as McpToolInfo,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';
import { type JsonObject, type Tool, tool } from '@rxagent/core';
import { Observable } from 'rxjs';
import { contentToText } from './contentToText.js';

/** How the tools of one connection call their server. */
export interface McpCallSettings {
  readonly client: Client;
  readonly prefix: string;
  readonly timeoutMs: number;
  readonly label: string;
}

/**
 * Wraps one tool listed by an MCP server as an rxagent Tool. Its `parameters` are the
 * server's JSON Schema, so the toolkit validates the model's arguments before anything is
 * sent (the server never sees a call that does not match). A run sends `tools/call` with
 * the run's signal: aborting it (or unsubscribing) makes the SDK send
 * `notifications/cancelled` to the server. Progress notifications stream as chunks
 * (a line each, `[progress 2/5: message]`, as `actingChunk` events) and restart the call's timeout; the
 * result text is the last value. An `isError` result, a lost connection or a timeout
 * become error tool results.
 * Throws `InvalidArgumentError` (from `tool()`) when the name or schema is unusable.
 */
export function mcpTool(info: McpToolInfo, settings: McpCallSettings): Tool<JsonObject> {
  const { client, timeoutMs, label } = settings;
  const mcpName = info.name;
  return tool({
    name: `${settings.prefix}${mcpName}`,
    description: info.description ?? info.title ?? info.annotations?.title ?? '',
    parameters: info.inputSchema,
    // Calls to an MCP server may have effects or changing answers: repeat them unless the
    // server says the tool is idempotent.
    dedupe: info.annotations?.idempotentHint === true,
    execute: (args, context) =>
      new Observable<string>((subscriber) => {
        // The run's own controller, so unsubscribing from this Observable cancels the call
        // even when nobody aborts `context.signal`.
        const controller = new AbortController();
        const onAbort = (): void => controller.abort(context.signal.reason);
        const signal = context.signal;
        if (signal.aborted) onAbort();
        else signal.addEventListener('abort', onAbort, { once: true });
        client
          .callTool({ name: mcpName, arguments: args }, undefined, {
            signal: controller.signal,
            timeout: timeoutMs,
            resetTimeoutOnProgress: true,
            onprogress: (progress) => subscriber.next(progressText(progress)),
          })
          .then(
            (result) => {
              const text = contentToText(result as Parameters<typeof contentToText>[0]);
              if (result.isError === true) subscriber.error(new Error(text));
              else {
                subscriber.next(text);
                subscriber.complete();
              }
            },
            (error: unknown) =>
              subscriber.error(
                new Error(describeCallFailure(error, label, timeoutMs), { cause: error }),
              ),
          );
        return () => {
          signal.removeEventListener('abort', onAbort);
          controller.abort(new DOMException('The MCP tool call was unsubscribed.', 'AbortError'));
        };
      }),
  }) as Tool<JsonObject>;
}

/**
 * A progress notification as a streamed chunk, one line each: `[progress 2/5: indexing]\n`
 * (chunks are a text stream, so without the newline two notifications would run together).
 */
function progressText(progress: Progress): string {
  const total = progress.total === undefined ? '' : `/${progress.total}`;
  const message = progress.message ? `: ${progress.message}` : '';
  return `[progress ${progress.progress}${total}${message}]\n`;
}

function describeCallFailure(error: unknown, label: string, timeoutMs: number): string {
  if (error instanceof McpError) {
    if (error.code === ErrorCode.ConnectionClosed) {
      return `lost its MCP server (${label}): the connection closed before the call finished; the server may have exited.`;
    }
    if (error.code === ErrorCode.RequestTimeout) {
      return `got no answer from its MCP server within ${timeoutMs} ms.`;
    }
    return `was refused by its MCP server: ${error.message}`;
  }
  const message = error instanceof Error ? error.message : String(error);
  if (message === 'Not connected') {
    return `cannot reach its MCP server (${label}): the connection is closed; reconnect with McpToolset.connect().`;
  }
  return `could not reach its MCP server (${label}): ${message}`;
}
