import { InvalidArgumentError } from '../errors.js';
import type { Msg } from '../message/msg.js';

/** `call()`/`observe()` input as an array, each element checked to be a Msg. */
export function normalizeInput(input: Msg | readonly Msg[] | undefined, method: string): Msg[] {
  if (input === undefined || input === null) return [];
  const msgs = Array.isArray(input) ? [...(input as readonly Msg[])] : [input as Msg];
  msgs.forEach((msg, index) => {
    if (
      typeof msg !== 'object' ||
      msg === null ||
      typeof msg.role !== 'string' ||
      !Array.isArray(msg.content)
    ) {
      throw new InvalidArgumentError(
        `${method}: input[${index}] is not a Msg (expected { id, name, role, content: [...] }); create messages with userMsg(), assistantMsg() or createMsg().`,
      );
    }
  });
  return msgs;
}
