import type { JsonObject } from '@rxagent/core';

/** Whether a wire message is the framework's plan hint (sent last, never stored). */
function isPlanHint(message: JsonObject | undefined): boolean {
  return (
    message?.['role'] === 'user' &&
    message['name'] === 'system' &&
    String(message['content']).startsWith('Your current plan')
  );
}

/**
 * Where `next` (a Chat Completions body) stops sharing the bytes of `previous`, or
 * `undefined` when it extends it: the tools must serialise identically, and every message of
 * `previous` (but a trailing plan hint, which is sent after the conversation and moves with
 * it) must be the same JSON at the same position. After a compression (`compressed`), only
 * the tools and the system prompt (the prefix before the cut) must be unchanged.
 */
export function prefixDrift(
  previous: JsonObject,
  next: JsonObject,
  compressed = false,
): string | undefined {
  const toolsBefore = JSON.stringify(previous['tools'] ?? []);
  const toolsAfter = JSON.stringify(next['tools'] ?? []);
  if (toolsBefore !== toolsAfter) return `tools changed: ${toolsBefore} → ${toolsAfter}`;
  const before = previous['messages'] as JsonObject[];
  const after = next['messages'] as JsonObject[];
  const kept = isPlanHint(before.at(-1)) ? before.slice(0, -1) : before;
  const length = compressed ? 1 : kept.length;
  for (let at = 0; at < length; at++) {
    const a = JSON.stringify(kept[at]);
    const b = JSON.stringify(after[at]);
    if (a !== b) return `message ${at} changed: ${a?.slice(0, 200)} → ${b?.slice(0, 200)}`;
  }
  return undefined;
}

/** Every drift between consecutive bodies (`compressedAt`: indexes of requests sent right after a compression). */
export function driftsOf(
  bodies: readonly JsonObject[],
  compressedAt: ReadonlySet<number> = new Set(),
): string[] {
  const drifts: string[] = [];
  for (let at = 1; at < bodies.length; at++) {
    const drift = prefixDrift(bodies[at - 1]!, bodies[at]!, compressedAt.has(at));
    if (drift !== undefined) drifts.push(`request ${at}: ${drift}`);
  }
  return drifts;
}
