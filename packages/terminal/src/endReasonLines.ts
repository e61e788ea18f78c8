import {
  handoffOf,
  isJsonObject,
  type Msg,
  pendingCallPath,
  replyMetadata,
  toolUses,
} from '@rxagent/core';
import { LINE_LIMIT, toolCallLine } from './lineParts.js';
import type { Style } from './style.js';
import { compactJson, oneLine, truncate } from './text.js';

/** Why the call ended, when it is not a plain final answer. */
export function reasonLines(msg: Msg, style: Style): string[] {
  switch (msg.metadata['generateReason']) {
    case 'interrupted':
      return [style.yellow('⏹ interrupted')];
    case 'tool_calls_stopped':
      return [
        style.yellow('⏸ stopped before running tools; pending for approval:'),
        ...toolUses(msg).map((call) => `  ${toolCallLine(call.name, call.input, style)}`),
      ];
    case 'acting_stopped':
      return [style.yellow('⏸ stopped after running tools')];
    case 'handoff':
      return [handoffLine(msg, style)];
    case 'approval_required':
      return approvalLines(msg, style);
    case 'max_iterations':
      return [style.yellow('↯ ended at the step limit')];
    case 'tool_failures':
      return [style.yellow('↯ ended after repeated tool failures')];
    case 'length':
      return [style.yellow('✂ answer cut at the output-token limit')];
    case 'guardrail': {
      const trip = replyMetadata(msg).guardrail;
      return [
        style.red(`🛡 refused by guardrail ${trip?.guardrail ?? '?'} (${trip?.stage ?? '?'})`),
      ];
    }
    case 'structured_output': {
      const response = compactJson(msg.metadata['response']);
      return [`${style.green('◆ structured response')} ${truncate(response, 2 * LINE_LIMIT)}`];
    }
    default:
      return [];
  }
}

/**
 * `⏸ approval required: pay({"amount":500})` for each call that waits for a decision, with
 * ` · travel › booking` for a call a sub-agent made.
 */
function approvalLines(msg: Msg, style: Style): string[] {
  const { approvalRequired = [], pendingToolCalls } = replyMetadata(msg);
  const waiting = new Set(approvalRequired);
  return (pendingToolCalls ?? toolUses(msg))
    .filter((call) => waiting.has(call.id))
    .map((call) => {
      // A call made inside a sub-agent says whose it is.
      const path = pendingCallPath(call);
      const where = path === undefined ? '' : style.dim(` · ${path.join(' › ')}`);
      return `${style.yellow('⏸ approval required:')} ${style.magenta(call.name)}(${style.dim(truncate(compactJson(call.input), LINE_LIMIT))})${where}`;
    });
}

/** The finish guard's verdict recorded on the reply (`metadata.finishGuard`). */
export function judgeLine(details: unknown): string | undefined {
  if (!isJsonObject(details)) return undefined;
  const rejections = typeof details['rejections'] === 'number' ? details['rejections'] : 0;
  const after =
    rejections > 0 ? ` after ${rejections} rejection${rejections === 1 ? '' : 's'}` : '';
  switch (details['verdict']) {
    case 'pass':
      return `⚖ judge: pass${after}`;
    case 'max_retries':
      return `⚖ judge: let through${after} (retry limit reached)`;
    case 'guard_error':
      return `⚖ judge failed, answer let through: ${String(details['error'])}`;
    case 'unreadable':
      return '⚖ judge: unreadable verdict, answer let through';
    default:
      return details['pass'] === true ? `⚖ judge: pass${after}` : undefined;
  }
}

/** `⇢ handoff to billing (refund request)`: the call handed the conversation on. */
function handoffLine(msg: Msg, style: Style): string {
  const handoff = handoffOf(msg);
  const to = handoff?.to ?? 'another agent';
  const reason = handoff?.reason ? ` (${truncate(oneLine(handoff.reason), LINE_LIMIT)})` : '';
  return style.yellow(`⇢ handoff to ${to}${reason}`);
}
