import {
  createMsg,
  InterruptedError,
  type JsonValue,
  type Msg,
  StructuredOutputError,
  type ThinkingBlock,
} from '@rxagent/core';
import { ApprovalRequiredError } from './approvalRequiredError.js';

/**
 * The type of the response a schema describes: the output type of a zod v4 or v3 schema
 * (after defaults and transforms), or `JsonValue` for a plain JSON Schema.
 */
export type StructuredResponse<S> = S extends { _zod: { output: infer O } }
  ? O
  : S extends { _output: infer O }
    ? O
    : JsonValue;

/**
 * The assistant message that carries a structured response: `metadata.response` is the
 * validated value and the text is its JSON, after the model's `thinking` when given (with
 * `model`, the model that thought it, as `metadata.model`, so the reasoning goes back to that
 * model only). It is both the stored answer and the reply.
 */
export function responseMsg(
  agentName: string,
  response: unknown,
  thinking: readonly ThinkingBlock[] = [],
  model?: string,
): Msg {
  return createMsg({
    name: agentName,
    role: 'assistant',
    content: [...thinking, { type: 'text', text: JSON.stringify(response) ?? 'null' }],
    metadata: {
      response: response as JsonValue,
      ...(model !== undefined && thinking.length > 0 && { model }),
    },
  });
}

/**
 * The response carried by the reply of a structured call. Throws `InterruptedError` when
 * the call was interrupted, `ApprovalRequiredError` (listing the pending tool calls) when
 * tool calls wait for approval, and `StructuredOutputError` when it ended without a
 * response otherwise (a hook stopped it to review a tool call: calling again resumes it).
 */
export function responseOf<T>(reply: Msg, agentName: string): T {
  const reason = reply.metadata['generateReason'];
  if (reason === 'structured_output') return reply.metadata['response'] as T;
  if (reason === 'interrupted') throw new InterruptedError(agentName);
  if (reason === 'approval_required') throw new ApprovalRequiredError(agentName, reply);
  const lastProblem = `the call ended with generateReason "${String(reason)}" before a response was produced`;
  throw new StructuredOutputError(
    reason === 'handoff'
      ? `Agent "${agentName}": ${lastProblem}: the model handed the conversation to another agent; use call() with handoffPipeline to follow it.`
      : `Agent "${agentName}": ${lastProblem}. A hook stopped it; call again (with the same structuredOutput) to resume.`,
    { lastProblem },
  );
}
