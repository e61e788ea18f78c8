import { type Message, type Part, Role } from '@a2a-js/sdk';
import { isJsonObject, type JsonObject, type Msg, newId, type ToolUseBlock } from '@rxagent/core';

/** A text part. */
export function textPart(text: string): Part {
  return {
    content: { $case: 'text', value: text },
    mediaType: 'text/plain',
    filename: '',
    metadata: undefined,
  };
}

/** A structured data part (JSON). */
export function dataPart(value: JsonObject): Part {
  return {
    content: { $case: 'data', value },
    mediaType: 'application/json',
    filename: '',
    metadata: undefined,
  };
}

/** A Message with `parts`, from the agent (server side) or the user (client side). */
export function a2aMessage(
  role: 'agent' | 'user',
  parts: Part[],
  ids: { readonly contextId?: string; readonly taskId?: string } = {},
): Message {
  return {
    messageId: newId(),
    contextId: ids.contextId ?? '',
    taskId: ids.taskId ?? '',
    role: role === 'agent' ? Role.ROLE_AGENT : Role.ROLE_USER,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** The text parts of `parts`, joined. */
export function textOfParts(parts: readonly Part[] | undefined): string {
  let text = '';
  for (const part of parts ?? []) if (part.content?.$case === 'text') text += part.content.value;
  return text;
}

/** The data parts of `parts` that hold a JSON object. */
export function dataOfParts(parts: readonly Part[] | undefined): JsonObject[] {
  const data: JsonObject[] = [];
  for (const part of parts ?? [])
    if (part.content?.$case === 'data' && isJsonObject(part.content.value))
      data.push(part.content.value);
  return data;
}

/** One tool call waiting for a human, as an input-required data part lists it. */
export interface PendingCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: JsonObject;
  /** Whether the call needs a decision (else it runs once the others are decided). */
  readonly needsApproval: boolean;
}

/**
 * The data part of an input-required status: `{ pendingToolCalls: [{ id, name, arguments,
 * needsApproval }] }`, from a reply that ended with `generateReason: 'approval_required'`.
 */
export function pendingCallsData(reply: Msg): JsonObject {
  const calls = Array.isArray(reply.metadata['pendingToolCalls'])
    ? (reply.metadata['pendingToolCalls'] as unknown as ToolUseBlock[])
    : [];
  const listed = reply.metadata['approvalRequired'];
  const needs = new Set(
    Array.isArray(listed) ? listed.filter((id) => typeof id === 'string') : calls.map((c) => c.id),
  );
  return {
    pendingToolCalls: calls.map((call) => ({
      id: call.id,
      name: call.name,
      arguments: isJsonObject(call.input) ? call.input : {},
      needsApproval: needs.has(call.id),
    })),
  };
}

/** The pending calls an input-required data part lists; calls of the wrong shape are left out. */
export function pendingCallsOf(data: readonly JsonObject[]): PendingCall[] {
  for (const value of data) {
    const list = value['pendingToolCalls'];
    if (!Array.isArray(list)) continue;
    return list.filter(isJsonObject).flatMap((call) =>
      typeof call['id'] === 'string' && typeof call['name'] === 'string'
        ? [
            {
              id: call['id'],
              name: call['name'],
              arguments: isJsonObject(call['arguments']) ? call['arguments'] : {},
              needsApproval: call['needsApproval'] !== false,
            },
          ]
        : [],
    );
  }
  return [];
}

/** Whether a data part holds `toolDecisions` options (`approve`, `deny`, `edit` or `remember`). */
export function isDecisionsData(value: JsonObject): boolean {
  return 'approve' in value || 'deny' in value || 'edit' in value || 'remember' in value;
}
