import {
  createMsg,
  interruptedOutput,
  type JsonObject,
  type Msg,
  type ToolResultBlock,
  type ToolUseBlock,
} from '@rxagent/core';

/** A tool-role Msg holding one result. */
export function toolResultMsg(
  agentName: string,
  result: ToolResultBlock,
  metadata?: JsonObject,
): Msg {
  return createMsg({
    name: agentName,
    role: 'tool',
    content: [result],
    ...(metadata !== undefined && { metadata }),
  });
}

/** An error result for a call that will not run or did not finish; `reason` is the model-facing text. */
export function errorResult(call: ToolUseBlock, reason: string): ToolResultBlock {
  return { type: 'tool_result', id: call.id, name: call.name, output: reason, isError: true };
}

/** The result recorded for a call cut by an interrupt or cancellation. */
export function interruptedResult(call: ToolUseBlock): ToolResultBlock {
  return errorResult(call, interruptedOutput(call.name));
}
