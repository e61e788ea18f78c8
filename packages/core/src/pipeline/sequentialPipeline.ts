import { concatMap, defer, type Observable } from 'rxjs';
import type { AgentBase } from '../agent/agentBase.js';
import type { Msg } from '../message/msg.js';
import { checkAgents } from './checkAgents.js';

/**
 * Runs agents one after another: `agents[0]` is called with `input`, and each reply is the
 * input of the next agent. Cold: nothing runs until subscription. Emits the last agent's
 * reply, then completes. Errors with the first failure (later agents are not called), or
 * with `InvalidArgumentError` when `agents` is empty or holds a non-agent: a pipeline of no
 * agents has no reply to emit. Unsubscribing cancels the call in flight.
 *
 * @example
 * ```ts
 * const answer = await lastValueFrom(sequentialPipeline([researcher, writer, editor], userMsg(topic)));
 * ```
 */
export function sequentialPipeline(
  agents: readonly AgentBase[],
  input?: Msg | readonly Msg[],
): Observable<Msg> {
  return defer(() => {
    const list = checkAgents(agents, 'sequentialPipeline()', { allowEmpty: false });
    return list
      .slice(1)
      .reduce<Observable<Msg>>(
        (replies, agent) => replies.pipe(concatMap((reply) => agent.call(reply))),
        list[0]!.call(input),
      );
  });
}
