import type { Observable } from 'rxjs';
import type { Agent } from '../agent/agent.js';
import { InvalidArgumentError } from '../errors.js';
import type { JsonObject } from '../json.js';

/** Where a guardrail looks: the call's input, the model's reply, a tool call, a tool result. */
export type GuardrailStage = 'input' | 'output' | 'toolCall' | 'toolResult';

/** The stages, in the order a call meets them. */
export const GUARDRAIL_STAGES: readonly GuardrailStage[] = [
  'input',
  'output',
  'toolCall',
  'toolResult',
];

/** What a `toolCall` guardrail checks: the call's tool name and arguments. */
export interface GuardrailToolCall {
  readonly name: string;
  readonly input: JsonObject;
}

/**
 * What a guardrail checks: text for `input` (one input message's text), `output` (the
 * reply's text; its tool calls are in `context.toolCalls`) and `toolResult` (the result's
 * text); the call for `toolCall`.
 */
export type GuardrailContent = string | GuardrailToolCall;

/**
 * A guardrail's verdict. `tripped: true` without `replacement` blocks: the input or reply
 * is refused (the call ends with `generateReason: 'guardrail'` and `reason` in the reply), a
 * tool call is denied, a tool result becomes the error result `[blocked] <reason>`. With a
 * `replacement` (of the content's shape: text, or `{ name, input }` whose `input` is used),
 * the content is replaced and the run goes on.
 */
export interface GuardrailVerdict {
  readonly tripped: boolean;
  readonly reason?: string;
  readonly replacement?: GuardrailContent;
}

/** What a guardrail's `check` gets beside the content. */
export interface GuardrailContext {
  readonly stage: GuardrailStage;
  readonly agent: Agent;
  /** Who is asking: the call's `callContext`, when it was given. */
  readonly callContext?: JsonObject;
  /** Aborts when the call is cancelled or the guardrail's time is up. */
  readonly signal: AbortSignal;
  /** `output`: the reply's tool calls (none run before every output guardrail passed). */
  readonly toolCalls?: readonly GuardrailToolCall[];
  /** `toolResult`: the tool whose result this is. */
  readonly toolName?: string;
}

/** What `check` may return: a verdict now, later, or as an Observable's first value. */
export type GuardrailResult =
  | GuardrailVerdict
  | Promise<GuardrailVerdict>
  | Observable<GuardrailVerdict>;

/** The definition `guardrail()` takes. */
export interface GuardrailDefinition {
  readonly name: string;
  /** The stage or stages it checks. */
  readonly on: GuardrailStage | readonly GuardrailStage[];
  readonly check: (content: GuardrailContent, context: GuardrailContext) => GuardrailResult;
  /** How long one check may take before it counts as tripped (default 30,000 ms). */
  readonly timeoutMs?: number;
}

/** A checked guardrail, what the agent option `guardrails` takes. */
export interface Guardrail {
  readonly name: string;
  readonly stages: readonly GuardrailStage[];
  readonly check: GuardrailDefinition['check'];
  readonly timeoutMs: number;
}

/** The default of `timeoutMs`. */
export const DEFAULT_GUARDRAIL_TIMEOUT_MS = 30_000;

/**
 * Makes a guardrail: `check(content, context)` runs at each stage in `on` and returns a
 * verdict (a value, a Promise or an Observable). Guardrails fail closed: a check that throws,
 * rejects, errors, returns no verdict or takes longer than `timeoutMs` trips. A bad
 * definition is an `InvalidArgumentError` naming the field.
 *
 * @example
 * ```ts
 * const noRefundsOverLimit = guardrail({
 *   name: 'refund-limit',
 *   on: 'toolCall',
 *   check: (call) =>
 *     typeof call !== 'string' && call.name === 'refund' && Number(call.input['amount']) > 500
 *       ? { tripped: true, reason: 'refunds over 500 need a manager' }
 *       : { tripped: false },
 * });
 * ```
 */
export function guardrail(definition: GuardrailDefinition): Guardrail {
  const { name, on, check, timeoutMs = DEFAULT_GUARDRAIL_TIMEOUT_MS } = definition ?? ({} as never);
  if (typeof name !== 'string' || name.trim() === '')
    throw new InvalidArgumentError('guardrail(): name must be a non-empty string.');
  const stages = typeof on === 'string' ? [on] : Array.isArray(on) ? [...on] : [];
  const unknown = stages.find((stage) => !GUARDRAIL_STAGES.includes(stage));
  if (stages.length === 0 || unknown !== undefined)
    throw new InvalidArgumentError(
      `guardrail "${name}": on must be one or more of ${GUARDRAIL_STAGES.join(', ')} (got ${JSON.stringify(unknown ?? on)}).`,
    );
  if (typeof check !== 'function')
    throw new InvalidArgumentError(`guardrail "${name}": check must be a function.`);
  if (typeof timeoutMs !== 'number' || !(timeoutMs > 0))
    throw new InvalidArgumentError(
      `guardrail "${name}": timeoutMs must be a positive number of milliseconds (got ${JSON.stringify(timeoutMs)}).`,
    );
  return Object.freeze({ name, stages: Object.freeze([...new Set(stages)]), check, timeoutMs });
}

/** Throws unless `value` is a list of guardrails made by `guardrail()`; `where` names the owner. */
export function checkGuardrails(where: string, value: unknown): readonly Guardrail[] {
  if (value === undefined) return [];
  if (!Array.isArray(value))
    throw new InvalidArgumentError(
      `${where}: guardrails must be an array of guardrail(...) values.`,
    );
  value.forEach((item: unknown, index) => {
    const g = item as Partial<Guardrail> | null;
    if (
      typeof g !== 'object' ||
      g === null ||
      typeof g.check !== 'function' ||
      !Array.isArray(g.stages)
    )
      throw new InvalidArgumentError(
        `${where}: guardrails[${index}] is not a guardrail; make each with guardrail({ name, on, check }).`,
      );
  });
  return value as readonly Guardrail[];
}
