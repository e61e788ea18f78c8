import { createMsg, type Msg } from '@rxagent/core';

/**
 * How a StructuredOutputAgent reacts when the model answers in plain text instead of calling
 * `generate_response`:
 * - `TOOL_CHOICE` (default): the next request forces `tool_choice: { name: 'generate_response' }`.
 * - `PROMPT`: a reminder message (user role, named `system`) is added instead, and the model
 *   stays free to call other tools first. For servers that ignore or reject `tool_choice`.
 */
export const StructuredOutputReminder = {
  TOOL_CHOICE: 'tool_choice',
  PROMPT: 'prompt',
} as const;

/** One of the `StructuredOutputReminder` values. */
export type StructuredOutputReminder =
  (typeof StructuredOutputReminder)[keyof typeof StructuredOutputReminder];

const REMINDER_TEXT =
  '[Reminder] Your last reply was plain text, but this request needs a structured answer. ' +
  'Call the generate_response tool now and put your complete final answer in its "response" argument. ' +
  'Do not answer in plain text.';

/**
 * The PROMPT-mode reminder: a user-role message named `system` (framework feedback), flagged
 * with `metadata.systemFeedback` and `metadata.structuredOutputReminder: 'prompt'`.
 */
export function reminderMsg(): Msg {
  return createMsg({
    name: 'system',
    role: 'user',
    content: REMINDER_TEXT,
    metadata: {
      systemFeedback: true,
      feedback: 'structured_output',
      structuredOutputReminder: StructuredOutputReminder.PROMPT,
    },
  });
}

/** Whether `msg` is a structured-output reminder (they never outlive the call that added them). */
export function isStructuredOutputReminder(msg: Msg): boolean {
  return msg.metadata['structuredOutputReminder'] !== undefined;
}

/** Whether `value` is one of the `StructuredOutputReminder` values. */
export function isStructuredOutputReminderMode(value: unknown): value is StructuredOutputReminder {
  return (
    value === StructuredOutputReminder.TOOL_CHOICE || value === StructuredOutputReminder.PROMPT
  );
}
