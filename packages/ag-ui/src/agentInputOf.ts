import type { Message, RunAgentInput } from '@ag-ui/core';
import {
  createMsg,
  InvalidArgumentError,
  type Msg,
  type ToolResultBlock,
  toolDecisions,
  userMsg,
} from '@rxagent/core';
import { type ToolApprovalDecisions, toolDecisionsOf } from './toolDecisionsOf.js';

/**
 * Turns approval decisions into the agent's next input, given the run that carries them.
 * Returning `undefined` calls the agent with no input.
 */
export type ResumeInput = (
  decisions: ToolApprovalDecisions,
  input: RunAgentInput,
) => Msg | Msg[] | undefined;

/**
 * What the agent is called with for a posted `RunAgentInput`. The agent keeps its own
 * memory per thread, so the history the client sends is not replayed:
 *
 * - with `resume` entries (answers to the `tool_approval` interrupts of the previous run),
 *   the input is `resumeInput(decisions, input)`;
 * - else the last message must be the user's: its text (text parts joined) is the new input.
 *
 * Throws `InvalidArgumentError` naming what is wrong when there is nothing to answer.
 */
export function agentInputOf(
  input: RunAgentInput,
  resumeInput: ResumeInput = asToolDecisions,
): Msg | Msg[] | undefined {
  if (input.resume !== undefined && input.resume.length > 0) {
    return resumeInput(toolDecisionsOf(input.resume), input);
  }
  const last = input.messages[input.messages.length - 1];
  if (last === undefined) {
    throw new InvalidArgumentError(
      'RunAgentInput.messages is empty: send the conversation with the new user message last (or resume entries answering interrupts).',
    );
  }
  if (last.role !== 'user') {
    throw new InvalidArgumentError(
      `The last message of RunAgentInput.messages has role "${last.role}": the agent answers a user message, so send the new user message last.`,
    );
  }
  const text = userText(last);
  if (text.trim() === '') {
    throw new InvalidArgumentError(
      `The last user message (${last.id}) has no text: send what the user said as a string or as text parts.`,
    );
  }
  return userMsg(text, { id: last.id });
}

/**
 * The default `ResumeInput`: the decisions as core's `toolDecisions({ approve, deny, edit })` Msg,
 * which resumes a ReActAgent's pending calls: approved ones and ones that need no approval
 * run, denied ones get a `[denied]` error result with the reason, and a call that needs
 * approval without a decision is denied with reason `no decision`.
 */
export function asToolDecisions(decisions: ToolApprovalDecisions): Msg {
  const { approve, deny, edit } = decisions;
  return toolDecisions({ approve, deny: { ...deny }, ...(edit && { edit }) });
}

/** The denial of an edited call for an agent that cannot run it with other arguments. */
export const EDIT_UNSUPPORTED = 'edited arguments are not supported by this agent; not run';

/**
 * A `ResumeInput` for agents that do not read `toolDecisions()`: with nothing denied the agent is called with no input (which runs
 * the pending calls); denied calls are answered with a tool-result message whose results are
 * error results reading `[denied] <reason>`, so only the approved calls then run (an edited
 * call is denied too: these agents cannot run it with other arguments). Tool names
 * come from the assistant tool calls in the posted history.
 */
export function denyAsToolResults(
  decisions: ToolApprovalDecisions,
  input: RunAgentInput,
): Msg | undefined {
  // Such an agent cannot run a call with other arguments: an edited call is not run at all,
  // rather than run with the arguments the human changed.
  const edited = Object.keys(decisions.edit ?? {}).map((id): [string, string] => [
    id,
    EDIT_UNSUPPORTED,
  ]);
  const denied = [...Object.entries(decisions.deny), ...edited];
  if (denied.length === 0) return undefined;
  const names = toolNamesOf(input.messages);
  const content: ToolResultBlock[] = denied.map(([id, reason]) => ({
    type: 'tool_result',
    id,
    name: names.get(id) ?? 'unknown',
    output: `[denied] ${reason}`,
    isError: true,
  }));
  return createMsg({ name: 'user', role: 'tool', content });
}

function userText(message: Extract<Message, { role: 'user' }>): string {
  const { content } = message;
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

function toolNamesOf(messages: readonly Message[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const call of message.toolCalls ?? []) names.set(call.id, call.function.name);
  }
  return names;
}
