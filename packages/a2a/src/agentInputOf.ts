import type { Message } from '@a2a-js/sdk';
import {
  InvalidArgumentError,
  type Msg,
  type ToolDecisions,
  toolDecisions,
  userMsg,
} from '@rxagent/core';
import { dataOfParts, isDecisionsData, textOfParts } from './a2aParts.js';

/**
 * The agent's input for an A2A message: a data part holding `toolDecisions` options
 * (`{ approve?: string[], deny?: { [id]: reason }, edit?: { [id]: arguments }, remember?:
 * string[], by? }`) becomes `toolDecisions(...)`,
 * which resumes a call stopped for approval; otherwise the text parts, joined, are a user
 * message. Throws `InvalidArgumentError` naming what is wrong when the message has neither,
 * or when the decisions have the wrong shape.
 */
export function agentInputOf(message: Message): Msg {
  const decisions = dataOfParts(message.parts).find(isDecisionsData);
  if (decisions !== undefined) {
    const { approve, deny } = decisions;
    if (
      approve !== undefined &&
      !(Array.isArray(approve) && approve.every((id) => typeof id === 'string'))
    )
      throw new InvalidArgumentError(
        'The decisions data part has an "approve" that is not an array of tool call ids.',
      );
    if (
      deny !== undefined &&
      !(
        typeof deny === 'object' &&
        deny !== null &&
        !Array.isArray(deny) &&
        Object.values(deny).every((reason) => typeof reason === 'string')
      )
    )
      throw new InvalidArgumentError(
        'The decisions data part has a "deny" that is not an object of tool call id → reason.',
      );
    // `edit`, `remember` and `by` go to toolDecisions as they are; it checks them (an
    // unknown key is a TypeError naming it).
    return toolDecisions(decisions as unknown as ToolDecisions);
  }
  const text = textOfParts(message.parts);
  if (text.trim() === '')
    throw new InvalidArgumentError(
      'The message has no text part and no data part with tool decisions: send what the user said as a text part.',
    );
  return userMsg(text);
}
