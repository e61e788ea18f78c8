import type { JsonObject } from '../json.js';
import { type Msg, withMetadata } from '../message/msg.js';
import type { Usage } from '../model/chatModel.js';
import type { UsageByAgent } from '../model/usageByAgent.js';

/**
 * `reply` with what AgentBase adds to every reply: `generateReason: 'stop'` when the
 * subclass set none, the call's summed `usage` when a model reported one (with
 * `usageByAgent` once a sub-agent's usage counted), and the ids of the steered messages the
 * call took (`steered`).
 */
export function withCallMetadata(
  reply: Msg,
  usage: Usage | undefined,
  steered?: readonly string[],
  byAgent?: UsageByAgent,
): Msg {
  const extra: JsonObject = {};
  if (reply.metadata['generateReason'] === undefined) extra['generateReason'] = 'stop';
  if (usage && reply.metadata['usage'] === undefined) extra['usage'] = { ...usage };
  if (byAgent && reply.metadata['usageByAgent'] === undefined)
    extra['usageByAgent'] = byAgent as unknown as JsonObject;
  if (steered && reply.metadata['steered'] === undefined) extra['steered'] = [...steered];
  return Object.keys(extra).length === 0 ? reply : withMetadata(reply, extra);
}
