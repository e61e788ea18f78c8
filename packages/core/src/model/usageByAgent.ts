import { isJsonObject } from '../json.js';
import type { Usage } from './chatModel.js';
import { addUsage } from './chatResponse.js';

/** Token usage by agent name (`reply.metadata.usageByAgent`). */
export type UsageByAgent = Readonly<Record<string, Usage>>;

/**
 * The usage of a call by agent name: `others` (other agents' usage, by name) plus the
 * caller's own under `self`, summed into an entry of the same name. `undefined` when
 * `others` is.
 */
export function usageByAgent(
  self: string,
  own: Usage | undefined,
  others: UsageByAgent | undefined,
): UsageByAgent | undefined {
  if (others === undefined) return undefined;
  const out: Record<string, Usage> = {};
  for (const [name, usage] of Object.entries(others)) out[name] = { ...usage };
  if (own !== undefined) out[self] = { ...addUsage(out[self], own)! };
  return out;
}

/** Whether `value` is a `UsageByAgent` (each entry has the three token counts). */
export function isUsageByAgent(value: unknown): value is UsageByAgent {
  return (
    isJsonObject(value) &&
    Object.values(value).every(
      (usage) =>
        isJsonObject(usage) &&
        typeof usage['inputTokens'] === 'number' &&
        typeof usage['outputTokens'] === 'number' &&
        typeof usage['totalTokens'] === 'number',
    )
  );
}
