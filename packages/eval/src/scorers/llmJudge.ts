import { type ChatModel, checkOptions, textOf } from '@rxagent/core';
import { lastValueFrom, reduce } from 'rxjs';
import type { EvalCase } from '../evalCase.js';
import type { Score, Scorer } from '../scorer.js';

/** Options of `llmJudge`. */
export interface LlmJudgeOptions {
  /** The judge. */
  readonly model: ChatModel;
  /** What a good reply does, in plain words; the judge scores the reply against it. */
  readonly rubric: string;
  /** The scorer's name in the report (default `"llmJudge"`). */
  readonly name?: string;
}

const OPTION_KEYS = ['model', 'rubric', 'name'] as const;

/**
 * Asks `model` to grade the reply against `rubric`, given the case's input and expected
 * value, answering `{"score": 0..1, "reason": "..."}` (a JSON object anywhere in its text).
 * An unreadable verdict, or a score out of range, scores 0 with the judge's text as the
 * reason; a failed judge request fails the scorer (the case records the error).
 */
export function llmJudge(options: LlmJudgeOptions): Scorer {
  checkOptions(options, OPTION_KEYS, 'llmJudge');
  if (typeof options.model?.stream !== 'function')
    throw new TypeError('llmJudge: model must be a ChatModel.');
  if (typeof options.rubric !== 'string' || options.rubric.trim() === '') {
    throw new TypeError('llmJudge: rubric must be a non-empty string.');
  }
  const { model, rubric } = options;
  return {
    name: options.name ?? 'llmJudge',
    score: async (testCase, reply) => {
      const verdict = await lastValueFrom(
        model
          .stream({
            messages: [
              { role: 'system', content: judgePrompt(rubric) },
              { role: 'user', content: judgeInput(testCase, textOf(reply)) },
            ],
            options: { temperature: 0 },
          })
          .pipe(reduce((text, chunk) => text + (chunk.text ?? ''), '')),
      );
      return readVerdict(verdict);
    },
  };
}

function judgePrompt(rubric: string): string {
  return [
    "You grade an AI agent's reply against a rubric.",
    `Rubric: ${rubric}`,
    'Answer with one JSON object and nothing else: {"score": <number from 0 to 1>, "reason": "<one sentence>"}.',
  ].join('\n');
}

function judgeInput(testCase: EvalCase, reply: string): string {
  const input =
    typeof testCase.input === 'string'
      ? testCase.input
      : (Array.isArray(testCase.input) ? testCase.input : [testCase.input])
          .map((msg) => textOf(msg))
          .join('\n');
  const expected =
    testCase.expected === undefined ? '' : `\nExpected: ${JSON.stringify(testCase.expected)}`;
  return `Input: ${input}${expected}\nReply: ${reply}`;
}

/** The judge's `{ score, reason }`, or a 0 saying why it could not be read. */
export function readVerdict(text: string): Score {
  const match = /\{[\s\S]*\}/.exec(text);
  try {
    const parsed = JSON.parse(match?.[0] ?? '') as { score?: unknown; reason?: unknown };
    const score = typeof parsed.score === 'number' ? parsed.score : Number.NaN;
    if (score >= 0 && score <= 1) {
      return { score, reason: typeof parsed.reason === 'string' ? parsed.reason : '' };
    }
  } catch {
    // Falls through: an unreadable verdict scores 0.
  }
  return { score: 0, reason: `unreadable verdict from the judge: ${text.slice(0, 200)}` };
}
