import { InvalidArgumentError } from '../errors.js';
import type { Msg } from '../message/msg.js';
import { checkOptions, optionNames } from '../options/checkOptions.js';

/** How many of the newest messages compression keeps by default. */
export const DEFAULT_KEEP_RECENT = 6;

/** Options of `planCompression`. */
export interface CompressionPlanOptions {
  /**
   * The newest messages that are always kept (default 6). With `pinned`, they are counted
   * after the pinned messages.
   */
  readonly keepRecent?: number;
  /**
   * Ids of messages that are never replaced: the running call's input, the question being
   * worked on. They are kept in place as one run (from the first of them in `messages` to the
   * last); ids not in `messages` are ignored.
   */
  readonly pinned?: Iterable<string>;
  /**
   * Replace only as many of the oldest messages as it takes for `countKept` of what remains
   * to be at most this; without it (or when no cut reaches it), replace all it may.
   */
  readonly targetTokens?: number;
  /** Counts the request the remaining messages would make (system prompt and tools included). */
  readonly countKept?: (kept: readonly Msg[]) => number;
}

const PLAN_KEYS = optionNames<CompressionPlanOptions>({
  keepRecent: true,
  pinned: true,
  targetTokens: true,
  countKept: true,
});

/** Which of the oldest messages to replace, and what stays. */
export interface CompressionPlan {
  /** The oldest messages, to be replaced by one message; never empty. */
  readonly replaced: readonly Msg[];
  /**
   * The rest, in order: the pinned messages and at least the newest `keepRecent` messages
   * after them.
   */
  readonly kept: readonly Msg[];
  /**
   * Where the replacement goes in `kept`: in place of the oldest message it replaces (0 when
   * the replaced messages start the conversation, else right after the pinned run).
   */
  readonly summaryAt: number;
}

/** The conversation after `plan`: `summary` at its place among the kept messages. */
export function withSummary(plan: CompressionPlan, summary: Msg): Msg[] {
  const { kept, summaryAt } = plan;
  return [...kept.slice(0, summaryAt), summary, ...kept.slice(summaryAt)];
}

/**
 * Chooses the oldest messages to replace by one summary (or drop marker) so that the newest
 * `keepRecent` are kept and what remains is still a valid conversation: a `tool_use` is
 * never separated from its results (an assistant message with tool calls and every message
 * holding their results go together), and the kept part never starts with a tool result.
 * With `targetTokens`, it replaces the fewest messages that bring `countKept` under the
 * target (a binary search: `countKept` runs O(log n) times); otherwise, or when none does,
 * as many as it may. With `pinned`, those messages are never replaced: the oldest messages
 * before them go first, then those after them except the newest `keepRecent`. Returns
 * `undefined` when no message can be replaced. Pure.
 */
export function planCompression(
  messages: readonly Msg[],
  options: CompressionPlanOptions = {},
): CompressionPlan | undefined {
  checkOptions(options, PLAN_KEYS, 'planCompression()');
  const keepRecent = options.keepRecent ?? DEFAULT_KEEP_RECENT;
  if (!(Number.isInteger(keepRecent) && keepRecent >= 0)) {
    throw new InvalidArgumentError(
      `planCompression: keepRecent must be a whole number of messages (0 or more), got ${String(keepRecent)}.`,
    );
  }
  const run = pinnedRun(messages, options.pinned);
  if (run === undefined) {
    const cuts = cutPoints(messages).filter((cut) => cut <= messages.length - keepRecent);
    if (cuts.length === 0) return undefined;
    const cut = chooseCut(cuts, (at) => messages.slice(at), options);
    return { replaced: messages.slice(0, cut), kept: messages.slice(cut), summaryAt: 0 };
  }
  // The conversation without the pinned run: its cuts up to `before` replace only messages
  // before the run; a larger cut also replaces the oldest messages after it.
  const [start, end] = run;
  const pinned = messages.slice(start, end);
  const rest = [...messages.slice(0, start), ...messages.slice(end)];
  const before = start;
  const after = messages.length - end;
  const limit = Math.min(before + Math.max(0, after - keepRecent), pairedWithPinned(rest, pinned));
  const cuts = cutPoints(rest).filter((cut) => cut <= limit);
  if (cuts.length === 0) return undefined;
  const keptAt = (cut: number): Msg[] =>
    cut <= before
      ? [...rest.slice(cut, before), ...pinned, ...rest.slice(before)]
      : [...pinned, ...rest.slice(cut)];
  const cut = chooseCut(cuts, keptAt, options);
  return {
    replaced: rest.slice(0, cut),
    kept: keptAt(cut),
    summaryAt: cut <= before || before > 0 ? 0 : pinned.length,
  };
}

/**
 * The index of the first message of `rest` holding a tool call whose result is pinned, or a
 * result of a pinned tool call (it must stay with its pair), else `rest.length`.
 */
function pairedWithPinned(rest: readonly Msg[], pinned: readonly Msg[]): number {
  const ids = new Set<string>();
  for (const msg of pinned) {
    for (const block of msg.content) {
      if (block.type === 'tool_use' || block.type === 'tool_result') ids.add(block.id);
    }
  }
  if (ids.size === 0) return rest.length;
  const at = rest.findIndex((msg) =>
    msg.content.some(
      (block) => (block.type === 'tool_use' || block.type === 'tool_result') && ids.has(block.id),
    ),
  );
  return at < 0 ? rest.length : at;
}

/** The index range `[start, end)` from the first pinned message to the last, if any. */
function pinnedRun(
  messages: readonly Msg[],
  pinned: Iterable<string> | undefined,
): [number, number] | undefined {
  if (pinned === undefined) return undefined;
  const ids = new Set(pinned);
  if (ids.size === 0) return undefined;
  let start = -1;
  let end = -1;
  messages.forEach((msg, index) => {
    if (!ids.has(msg.id)) return;
    if (start < 0) start = index;
    end = index + 1;
  });
  return start < 0 ? undefined : [start, end];
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
  cuts: readonly number[],
  keptAt: (cut: number) => readonly Msg[],
  options: CompressionPlanOptions,
): number {
  const largest = cuts[cuts.length - 1]!;
  const { targetTokens, countKept } = options;
  if (targetTokens === undefined || countKept === undefined) return largest;
  // Removing more never makes the remainder count more, so the fitting cuts are a suffix.
  let low = 0;
  let high = cuts.length - 1;
  if (countKept(keptAt(largest)) > targetTokens) return largest;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (countKept(keptAt(cuts[middle]!)) <= targetTokens) high = middle;
    else low = middle + 1;
  }
  return cuts[low]!;
}
