import { InvalidArgumentError } from '../errors.js';
import type { Msg } from '../message/msg.js';

/** How many of the newest messages compression keeps by default. */
export const DEFAULT_KEEP_RECENT = 6;

/** Options of `planCompression`. */
export interface CompressionPlanOptions {
  /** The newest messages that are always kept (default 6). */
  readonly keepRecent?: number;
  /**
   * Replace only as many of the oldest messages as it takes for `countKept` of what remains
   * to be at most this; without it (or when no cut reaches it), replace all it may.
   */
  readonly targetTokens?: number;
  /** Counts the request the remaining messages would make (system prompt and tools included). */
  readonly countKept?: (kept: readonly Msg[]) => number;
}

/** Which of the oldest messages to replace, and what stays. */
export interface CompressionPlan {
  /** The oldest messages, to be replaced by one message; never empty. */
  readonly replaced: readonly Msg[];
  /** The rest, newest last: at least the newest `keepRecent` messages. */
  readonly kept: readonly Msg[];
}

/**
 * Chooses the oldest messages to replace by one summary (or drop marker) so that the newest
 * `keepRecent` are kept and what remains is still a valid conversation: a `tool_use` is
 * never separated from its results (an assistant message with tool calls and every message
 * holding their results go together), and the kept part never starts with a tool result.
 * With `targetTokens`, it replaces the fewest messages that bring `countKept` under the
 * target (a binary search: `countKept` runs O(log n) times); otherwise, or when none does,
 * as many as it may. Returns `undefined` when no message can be replaced. Pure.
 */
export function planCompression(
  messages: readonly Msg[],
  options: CompressionPlanOptions = {},
): CompressionPlan | undefined {
  const keepRecent = options.keepRecent ?? DEFAULT_KEEP_RECENT;
  if (!(Number.isInteger(keepRecent) && keepRecent >= 0)) {
    throw new InvalidArgumentError(
      `planCompression: keepRecent must be a whole number of messages (0 or more), got ${String(keepRecent)}.`,
    );
  }
  const cuts = cutPoints(messages).filter((cut) => cut <= messages.length - keepRecent);
  if (cuts.length === 0) return undefined;
  const cut = chooseCut(messages, cuts, options);
  return { replaced: messages.slice(0, cut), kept: messages.slice(cut) };
}

/**
 * The indexes `i` (1 to `messages.length`) where the conversation may be cut, replacing
 * `messages[0..i)`: no tool call before `i` has a result at or after `i`, and `messages[i]`
 * holds no tool result. O(total blocks).
 */
export function cutPoints(messages: readonly Msg[]): number[] {
  const callAt = new Map<string, number>();
  // blockedUntil[a] = the last index holding a result of a call made at index a.
  const blockedUntil: number[] = [];
  messages.forEach((msg, index) => {
    for (const block of msg.content) {
      if (block.type === 'tool_use') callAt.set(block.id, index);
      else if (block.type === 'tool_result') {
        const at = callAt.get(block.id);
        if (at !== undefined && at < index) blockedUntil[at] = index;
      }
    }
  });
  const cuts: number[] = [];
  let openUntil = -1;
  for (let index = 1; index <= messages.length; index++) {
    openUntil = Math.max(openUntil, blockedUntil[index - 1] ?? -1);
    if (openUntil >= index) continue;
    const next = messages[index];
    if (next !== undefined && startsWithResult(next)) continue;
    cuts.push(index);
  }
  return cuts;
}

function startsWithResult(msg: Msg): boolean {
  return msg.role === 'tool' || msg.content.some((block) => block.type === 'tool_result');
}

/** The smallest cut whose remainder counts at most `targetTokens`, else the largest cut. */
function chooseCut(
  messages: readonly Msg[],
  cuts: readonly number[],
  options: CompressionPlanOptions,
): number {
  const largest = cuts[cuts.length - 1]!;
  const { targetTokens, countKept } = options;
  if (targetTokens === undefined || countKept === undefined) return largest;
  // Removing more never makes the remainder count more, so the fitting cuts are a suffix.
  let low = 0;
  let high = cuts.length - 1;
  if (countKept(messages.slice(largest)) > targetTokens) return largest;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (countKept(messages.slice(cuts[middle])) <= targetTokens) high = middle;
    else low = middle + 1;
  }
  return cuts[low]!;
}
