import type { CallToolResult, ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import { type AgentEvent, type AgentThreads, type Msg, textOf, toolUses } from '@rxagent/core';
import type { Subscription } from 'rxjs';

/** What a tool handler gets from the MCP SDK that the agent tool uses. */
export interface ToolCallExtra {
  readonly signal: AbortSignal;
  readonly _meta?: { readonly progressToken?: string | number };
  sendNotification(notification: ServerNotification): Promise<void>;
}

/**
 * Runs one agent call for an MCP tool call and resolves with its result: the reply's text,
 * or an `isError` result for a failed, interrupted or approval-stopped call. Streamed text
 * goes out as progress notifications when the call has a progress token; the request's
 * signal aborting interrupts the agent, and unsubscribes the call if it has not ended after
 * `graceMs`. Never rejects.
 */
export function runAgentTool(
  threads: AgentThreads,
  contextId: string,
  input: Msg,
  extra: ToolCallExtra,
  graceMs: number,
): Promise<CallToolResult> {
  return new Promise<CallToolResult>((resolve) => {
    const token = extra._meta?.progressToken;
    let progress = 0;
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    let subscription: Subscription | undefined;
    const onAbort = (): void => {
      threads.interrupt(contextId);
      timer = setTimeout(() => {
        subscription?.unsubscribe();
        finish(errorResult('The call was cancelled.'));
      }, graceMs);
      timer.unref();
    };
    const finish = (result: CallToolResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      extra.signal.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const onEvent = (event: AgentEvent): void => {
      if (event.type === 'reply') {
        finish(resultOf(event.msg));
        return;
      }
      if (token === undefined || event.type !== 'reasoningChunk') return;
      const text = event.delta.text;
      if (text === undefined || text === '') return;
      progress += 1;
      extra
        .sendNotification({
          method: 'notifications/progress',
          params: { progressToken: token, progress, message: text },
        })
        .catch(() => undefined);
    };
    // A synchronous agent may answer within subscribe(), before the abort listener is added.
    subscription = threads.stream(contextId, [input]).subscribe({
      next: onEvent,
      error: (error: unknown) =>
        finish(
          errorResult(
            `The agent failed: ${error instanceof Error ? error.message : String(error)}`,
          ),
        ),
      complete: () => finish(errorResult('The agent ended without a reply.')),
    });
    if (settled) return;
    if (extra.signal.aborted) onAbort();
    else extra.signal.addEventListener('abort', onAbort, { once: true });
  });
}

function resultOf(reply: Msg): CallToolResult {
  const reason = reply.metadata['generateReason'];
  if (reason === 'interrupted') return errorResult(`The agent was interrupted: ${textOf(reply)}`);
  if (reason === 'approval_required') {
    const pending = reply.metadata['pendingToolCalls'];
    const calls = Array.isArray(pending) ? pending : toolUses(reply);
    const names = calls
      .map((call) =>
        typeof call === 'object' && call !== null && 'name' in call ? String(call.name) : '?',
      )
      .join(', ');
    return errorResult(
      `The agent stopped to wait for a human's approval of ${names}, which an MCP tool call cannot give.`,
    );
  }
  return { content: [{ type: 'text', text: textOf(reply) }] };
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
