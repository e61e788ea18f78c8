import { createMsg, type Msg, textOf, toolUses, withMetadata } from '@rxagent/core';
import type { ReActCallState } from './reactCallState.js';
import type { FinalAnswerDecision } from './step.js';

/** The reminder sent after an empty final answer: framework feedback, stored like judge feedback. */
export function emptyAnswerReminder(): Msg {
  return createMsg({
    name: 'system',
    role: 'user',
    content:
      'Your last reply was empty: it had no text and called no tool. Answer the request now, or call a tool if you need one.',
    metadata: { systemFeedback: true, feedback: 'empty_answer' },
  });
}

/** Whether `reply` has no text (thinking alone does not count) and no tool calls. */
export function isEmptyAnswer(reply: Msg): boolean {
  return textOf(reply).trim() === '' && toolUses(reply).length === 0;
}

/**
 * The decision about an empty final answer, or `undefined` when `reply` is not empty. The
 * first empty answer of a call is dropped and one reminder is stored, so the model is asked
 * again; the second is accepted, marked `metadata.emptyAnswer: true`. A reply the server cut
 * or filtered (`metadata.finishReason` such as `length` or `content_filter`) is accepted at
 * once, marked the same way: asking again would meet the same limit or filter.
 */
export function emptyAnswerDecision(
  reply: Msg,
  state: ReActCallState,
): FinalAnswerDecision | undefined {
  if (!isEmptyAnswer(reply)) return undefined;
  if (state.emptyAnswerReminded || reply.metadata['finishReason'] !== undefined)
    return { accept: true, reply: withMetadata(reply, { emptyAnswer: true }) };
  state.emptyAnswerReminded = true;
  return { accept: false, keepDraft: false, feedback: [emptyAnswerReminder()] };
}
