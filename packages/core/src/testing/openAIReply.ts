import type { DialectWire } from './serverDialect.js';
import type { PlannedToolCall, TurnPlan } from './turnPlan.js';

/** Identity fields every chunk and completion of one response carries. */
export interface ReplyMeta {
  readonly id: string;
  readonly created: number;
  readonly model: string;
}

/** A JSON object the server sends as-is. */
export type WireObject = Record<string, unknown>;

/**
 * The `chat.completion.chunk` objects of a streamed reply, as OpenAI sends them: an optional
 * role preamble (`{ role: 'assistant', content: '' }`, not counted by `afterChunks`), the
 * counted chunks (reasoning, content, tool-call deltas, then the finish chunk) and, with
 * `include_usage`, the usage chunk (`choices: []`).
 */
export interface StreamEvents {
  readonly preamble?: WireObject;
  readonly counted: readonly WireObject[];
  readonly usage?: WireObject;
}

const FINGERPRINT = 'fp_rxagent_strict';

/** Builds the chunks of a streamed reply; `wire` adds a dialect's fields. */
export function streamEvents(
  plan: TurnPlan,
  meta: ReplyMeta,
  includeUsage: boolean,
  wire?: DialectWire,
  cachedTokens = 0,
): StreamEvents {
  const chunk = (delta: WireObject, finishReason: string | null = null): WireObject => ({
    id: meta.id,
    object: 'chat.completion.chunk',
    created: meta.created,
    model: meta.model,
    system_fingerprint: FINGERPRINT,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(includeUsage && { usage: null }),
  });
  // OpenAI announces the role in its own chunk, unless the reply opens with a tool call.
  const toolCallsOnly =
    plan.toolCalls.length > 0 && plan.text.length === 0 && plan.thinking.length === 0;
  const counted: WireObject[] = [
    ...plan.thinking.map((piece, at) => chunk(reasoningDelta(piece, at, plan, wire))),
    ...plan.text.map((piece) => chunk({ content: piece })),
  ];
  plan.toolCalls.forEach((call, index) => {
    const role =
      index === 0 && toolCallsOnly ? { role: 'assistant', content: null, refusal: null } : {};
    const extra = wire?.extraContent?.(index);
    const head = {
      index,
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: '' },
      ...(extra && { extra_content: extra }),
    };
    counted.push(chunk({ ...role, tool_calls: [head] }));
    for (const args of call.fragments)
      counted.push(chunk({ tool_calls: [{ index, function: { arguments: args } }] }));
  });
  counted.push(chunk({}, plan.finishReason));
  return {
    ...(!toolCallsOnly && { preamble: chunk({ role: 'assistant', content: '', refusal: null }) }),
    counted,
    ...(includeUsage && {
      usage: { ...chunk({}), choices: [], usage: wireUsage(plan, cachedTokens) },
    }),
  };
}

/** Builds the `chat.completion` object of a non-streamed reply; `wire` adds a dialect's fields. */
export function completion(
  plan: TurnPlan,
  meta: ReplyMeta,
  wire?: DialectWire,
  cachedTokens = 0,
): WireObject {
  const text = plan.text.join('');
  const thinking = plan.thinking.join('');
  const details = wire?.details;
  const message: WireObject = {
    role: 'assistant',
    content: text === '' && plan.toolCalls.length > 0 ? null : text,
    refusal: null,
    ...(thinking !== '' && { [wire?.reasoningField ?? 'reasoning_content']: thinking }),
    ...(thinking !== '' &&
      details && {
        reasoning_details: [
          {
            type: 'reasoning.text',
            text: thinking,
            format: details.format,
            index: 0,
            signature: details.signature,
          },
        ],
      }),
    ...(plan.toolCalls.length > 0 && {
      tool_calls: plan.toolCalls.map((call, index) =>
        wireToolCall(call, wire?.extraContent?.(index)),
      ),
    }),
  };
  return {
    id: meta.id,
    object: 'chat.completion',
    created: meta.created,
    model: meta.model,
    system_fingerprint: FINGERPRINT,
    choices: [{ index: 0, message, logprobs: null, finish_reason: plan.finishReason }],
    usage: wireUsage(plan, cachedTokens),
  };
}

/** OpenAI's error body: `{ error: { message, type, param, code } }`, typed by status as OpenAI does. */
export function errorBody(status: number, message: string, code: string | null = null): WireObject {
  const type =
    status === 429 ? 'requests' : status >= 500 ? 'server_error' : 'invalid_request_error';
  const defaultCode = status === 429 ? 'rate_limit_exceeded' : null;
  return { error: { message, type, param: null, code: code ?? defaultCode } };
}

/** The message OpenAI-like servers give for a status, used when a scripted error has none. */
export function defaultErrorMessage(status: number): string {
  if (status === 429) return 'Rate limit reached for requests (scripted). Please try again later.';
  if (status >= 500) return 'The server had an error while processing your request (scripted).';
  return `Scripted HTTP ${status} error.`;
}

function wireToolCall(call: PlannedToolCall, extra: WireObject | undefined): WireObject {
  return {
    id: call.id,
    type: 'function',
    function: { name: call.name, arguments: call.arguments },
    ...(extra && { extra_content: extra }),
  };
}

/** The delta of one reasoning piece: its text field and, for OpenRouter, its detail piece. */
function reasoningDelta(
  piece: string,
  at: number,
  plan: TurnPlan,
  wire: DialectWire | undefined,
): WireObject {
  const field = wire?.reasoningField ?? 'reasoning_content';
  const details = wire?.details;
  if (!details) return { [field]: piece };
  const last = at === plan.thinking.length - 1;
  const detail = {
    type: 'reasoning.text',
    text: piece,
    format: details.format,
    index: 0,
    ...(last && { signature: details.signature }),
  };
  return { content: '', [field]: piece, reasoning_details: [detail] };
}

function wireUsage(plan: TurnPlan, cachedTokens: number): WireObject {
  return {
    prompt_tokens: plan.usage.inputTokens,
    completion_tokens: plan.usage.outputTokens,
    total_tokens: plan.usage.totalTokens,
    prompt_tokens_details: { cached_tokens: cachedTokens },
  };
}
