import type { Observable } from 'rxjs';
import { InvalidArgumentError, ObserveError } from '../errors.js';
import type { ErrorEvent } from '../hooks/hookEvent.js';
import { normalizeInput } from '../internal/normalizeInput.js';
import { type Msg, userMsg } from '../message/msg.js';
import type { Agent } from './agent.js';
import { observeEach } from './observeEach.js';

/**
 * The messages of `steer(input)`: a string becomes a user Msg, a Msg keeps its id. Throws
 * `InvalidArgumentError` (naming `method`) when none is given or one says nothing.
 */
export function steeredMsgs(input: string | Msg | readonly Msg[], method: string): Msg[] {
  const msgs = typeof input === 'string' ? [userMsg(input)] : normalizeInput(input, method);
  if (msgs.length === 0)
    throw new InvalidArgumentError(
      `${method}: no message given; pass the text to add to the call.`,
    );
  for (const msg of msgs) {
    const said = msg.content.some((block) => block.type !== 'text' || block.text.trim() !== '');
    if (!said)
      throw new InvalidArgumentError(
        `${method}: the message is empty; pass the text to add to the call.`,
      );
  }
  return msgs;
}

/**
 * Delivers steered messages no call took (steered while idle, or left when the call ended)
 * through `doObserve`, one after another; a failure goes to `reportError` (the agent's error
 * hooks) as an `ObserveError`.
 */
export function deliverSteered(
  agent: Agent,
  msgs: readonly Msg[],
  doObserve: (msg: Msg) => Observable<void>,
  reportError: (event: ErrorEvent) => Observable<unknown>,
): void {
  const report = (cause: unknown): void => {
    const error = new ObserveError(agent.name, 'steer()', { cause });
    reportError({ type: 'error', agent, error }).subscribe();
  };
  observeEach(msgs, `${agent.name}.steer()`, doObserve).subscribe({ error: report });
}
