import {
  type ChatModel,
  ChatResponseAccumulator,
  checkOptions,
  InvalidArgumentError,
  optionNames,
  textOf,
} from '@rxagent/core';
import { concat, defer, ignoreElements, type Observable, of, tap } from 'rxjs';
import type { FinishGuard, FinishGuardInput, FinishVerdict } from './finishGuard.js';

/** Options of `new JudgeGuard(...)`. */
export interface JudgeGuardOptions {
  /** The judge; may be a cheaper model than the agent's. */
  readonly model: ChatModel;
  /** Rejections per call after which the answer is let through (default 2). */
  readonly maxRetries?: number;
  /** Replaces the judge's instructions (keep the PASS / FAIL reply format). */
  readonly instructions?: string;
  /**
   * A cheap pre-check before any judge request: a draft whose trimmed text is shorter than
   * this many characters is rejected at once (`verdict: 'too_short'`), without spending a
   * model request. Default 0 (off).
   */
  readonly minChars?: number;
}

const JUDGE_GUARD_KEYS = optionNames<JudgeGuardOptions>({
  model: true,
  maxRetries: true,
  instructions: true,
  minChars: true,
});

const INSTRUCTIONS = `You review a draft answer before it is sent to a user.
Check that the draft addresses every point of the user's request. Do not judge style.
Reply with exactly one line:
PASS
or
FAIL: <which points of the request are missing or wrong, as an instruction to the writer>`;

/**
 * An LLM-as-judge finish guard: one tool-less request checks that the draft final answer
 * covers every point of the call's request: its own input plus every message steered into it. After `maxRetries` rejections in a call
 * it lets the answer through. A reply it cannot read counts as a pass (fail-open), and the
 * agent treats a judge error as a pass too. With `minChars`, a trivially short draft is
 * rejected without a judge request. The judge's token usage is reported apart from the
 * agent's, as the reply's `metadata.judgeUsage` (`metadata.usage` is the agent's own model).
 *
 * @example
 * ```ts
 * new ReActAgent({ name: 'assistant', sysPrompt, model, finishGuard: new JudgeGuard({ model, maxRetries: 2 }) });
 * ```
 */
export class JudgeGuard implements FinishGuard {
  readonly #model: ChatModel;
  readonly #maxRetries: number;
  readonly #instructions: string;
  readonly #minChars: number;

  constructor(options: JudgeGuardOptions) {
    checkOptions(options, JUDGE_GUARD_KEYS, 'JudgeGuard');
    this.#model = options.model;
    this.#maxRetries = options.maxRetries ?? 2;
    this.#instructions = options.instructions ?? INSTRUCTIONS;
    const minChars = options.minChars ?? 0;
    if (!Number.isInteger(minChars) || minChars < 0)
      throw new InvalidArgumentError(
        `JudgeGuard: minChars must be a non-negative integer, got ${minChars}.`,
      );
    this.#minChars = minChars;
  }

  /** Cold; emits one verdict and completes; errors when the judge request fails. */
  check(input: FinishGuardInput): Observable<FinishVerdict> {
    return defer(() => {
      if (input.rejections >= this.#maxRetries) {
        return of<FinishVerdict>({
          pass: true,
          details: { verdict: 'max_retries', maxRetries: this.#maxRetries },
        });
      }
      const chars = textOf(input.draft).trim().length;
      if (chars < this.#minChars) {
        const feedback = `The answer is too short (${chars} characters, at least ${this.#minChars} expected): answer the request in full.`;
        return of<FinishVerdict>({
          pass: false,
          feedback,
          details: { verdict: 'too_short', chars, minChars: this.#minChars },
        });
      }
      const request = requestText(input);
      if (request === undefined)
        return of<FinishVerdict>({ pass: true, details: { verdict: 'no_request' } });
      const accumulator = new ChatResponseAccumulator();
      const judged = this.#model
        .stream({
          messages: [
            { role: 'system', content: this.#instructions },
            {
              role: 'user',
              content: `User request:\n${request}\n\nDraft answer:\n${textOf(input.draft)}`,
            },
          ],
          signal: input.signal,
        })
        .pipe(
          tap((chunk) => accumulator.add(chunk)),
          ignoreElements(),
        );
      return concat(
        judged,
        defer(() => {
          const response = accumulator.response();
          input.addUsage(response.usage);
          return of(parseVerdict(response.text));
        }),
      );
    });
  }
}

/**
 * The text of what the draft must answer: the call's input and every message steered into
 * it (`input.request`), one per paragraph; without any (a guard input made by hand), the
 * last message from the user (framework feedback, named `system`, is skipped).
 */
function requestText(input: FinishGuardInput): string | undefined {
  const request = (input.request ?? []).filter((msg) => msg.name !== 'system').map(textOf);
  if (request.length > 0) return request.join('\n\n');
  const { messages } = input;
  for (let index = messages.length - 1; index >= 0; index--) {
    const msg = messages[index]!;
    if (msg.role === 'user' && msg.name !== 'system') return textOf(msg);
  }
  return undefined;
}

/** Reads a `PASS` / `FAIL: ...` reply. */
export function parseVerdict(text: string): FinishVerdict {
  const reply = text.trim();
  const fail = /^\**\s*FAIL\b\**\s*[:\-–]?\s*/i.exec(reply);
  if (fail) {
    const feedback =
      reply.slice(fail[0].length).trim() || 'The answer does not cover every point of the request.';
    return { pass: false, feedback, details: { verdict: 'fail', feedback } };
  }
  if (/^\**\s*PASS\b/i.test(reply)) return { pass: true, details: { verdict: 'pass' } };
  return { pass: true, details: { verdict: 'unreadable', reply: reply.slice(0, 200) } };
}
