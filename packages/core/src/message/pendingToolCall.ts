import { isJsonObject, type JsonObject } from '../json.js';
import type { ToolUseBlock } from './contentBlock.js';

/**
 * A tool call that waits for a human decision, as a reply's `metadata.pendingToolCalls`
 * lists it. A call made inside a sub-agent (an `agent.asTool()` tool, at any depth) carries
 * `metadata.path`: the names of the agents from the one that was called (outermost) to the
 * one that made the call, e.g. `['travel', 'booking']`. The agent's own calls have no path.
 */
export interface PendingToolCall extends ToolUseBlock {
  readonly metadata?: { readonly path?: readonly string[] };
}

/** The `metadata.path` of a pending call, or `undefined` for the agent's own call. */
export function pendingCallPath(call: ToolUseBlock): readonly string[] | undefined {
  const metadata = (call as { metadata?: unknown }).metadata;
  if (!isJsonObject(metadata)) return undefined;
  const path = metadata['path'];
  return Array.isArray(path) && path.every((name) => typeof name === 'string')
    ? (path as string[])
    : undefined;
}

/**
 * `calls` as an agent one level up lists them: each with `metadata.path` = `[outer,
 * ...path]`, where an own call (no path) of the agent `inner` counts as path `[inner]`.
 * `outer` is the name of the agent that called `inner` (none when it was called by a plain
 * caller: then the path starts at `inner`).
 */
export function nestPendingCalls(
  calls: readonly ToolUseBlock[],
  inner: string,
  outer: string | undefined,
): PendingToolCall[] {
  return calls.map((call) => {
    const path = pendingCallPath(call) ?? [inner];
    const metadata = (call as { metadata?: JsonObject }).metadata;
    return {
      ...call,
      metadata: { ...metadata, path: outer === undefined ? [...path] : [outer, ...path] },
    };
  });
}
