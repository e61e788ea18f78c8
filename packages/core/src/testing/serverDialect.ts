import type { JsonObject } from '../json.js';
import type { PlannedToolCall, TurnPlan } from './turnPlan.js';
import { splitText } from './turnPlan.js';

/**
 * A provider whose rules about reasoning sent back the strict server can play:
 * - `'deepseek'` (thinking mode): streams `reasoning_content`; rejects an assistant message
 *   with `tool_calls` that does not carry back the `reasoning_content` it came with.
 * - `'gemini'` (OpenAI compatibility): puts `extra_content.google.thought_signature` on the
 *   first tool call of a reply; rejects a function call of the current turn (since the last
 *   user message) sent back without it.
 * - `'openrouter'`: streams `reasoning` and `reasoning_details` pieces (`index` 0, the
 *   `signature` on the last); rejects an assistant message with `tool_calls` of the current
 *   turn without the `reasoning_details` it came with (as Anthropic's extended thinking does).
 */
export type StrictServerDialect = 'deepseek' | 'gemini' | 'openrouter';

/** The dialect fields of one reply, as `streamEvents` and `completion` put them on the wire. */
export interface DialectWire {
  readonly reasoningField: 'reasoning_content' | 'reasoning';
  /** The `format` of OpenRouter's `reasoning_details`, and the signature of the last piece. */
  readonly details?: { readonly format: string; readonly signature: string };
  /** `extra_content` of the tool call at an index. */
  readonly extraContent?: (index: number) => JsonObject | undefined;
}

/** What the server sent with a tool call, to check it comes back. */
interface Issued {
  readonly reasoning?: string;
  readonly details?: JsonObject[];
  readonly signature?: string;
}

const DEEPSEEK_ERROR = 'The reasoning_content in the thinking mode must be passed back to the API.';
const DETAILS_FORMAT = 'anthropic-claude-v1';

/** One server's dialect: shapes its replies and checks that requests send them back. */
export class ServerDialect {
  readonly #issued = new Map<string, Issued>();

  constructor(readonly name: StrictServerDialect) {}

  /**
   * The plan with reasoning to send (a short one is made up when the script gave none and
   * the dialect streams reasoning), its wire fields, and a record of what goes with each call.
   */
  shape(plan: TurnPlan, replyNumber: number): { plan: TurnPlan; wire: DialectWire } {
    const signature = `c2lnLXJ4YWdlbnQt${replyNumber.toString(36)}`;
    if (this.name === 'gemini') {
      const first = plan.toolCalls[0];
      const google = (index: number) => ({
        google: { thought_signature: `${signature}-${index}` },
      });
      if (first) this.#issued.set(first.id, { signature: `${signature}-0` });
      return {
        plan,
        wire: {
          reasoningField: 'reasoning_content',
          extraContent: (index) => (index === 0 ? google(index) : undefined),
        },
      };
    }
    const shaped =
      plan.thinking.length > 0
        ? plan
        : { ...plan, thinking: splitText(`Reply ${replyNumber}: I think before I answer.`) };
    const reasoning = shaped.thinking.join('');
    const openrouter = this.name === 'openrouter';
    const details = openrouter
      ? [{ type: 'reasoning.text', text: reasoning, format: DETAILS_FORMAT, index: 0, signature }]
      : undefined;
    for (const call of shaped.toolCalls) this.#record(call, reasoning, details);
    return {
      plan: shaped,
      wire: {
        reasoningField: openrouter ? 'reasoning' : 'reasoning_content',
        ...(openrouter && { details: { format: DETAILS_FORMAT, signature } }),
      },
    };
  }

  /** Why the provider would answer `messages` with a 400, or `undefined`. */
  check(messages: readonly Record<string, unknown>[]): string | undefined {
    let turnStart = 0;
    messages.forEach((message, index) => {
      if (message['role'] === 'user') turnStart = index + 1;
    });
    for (const [index, message] of messages.entries()) {
      const calls = message['tool_calls'];
      if (message['role'] !== 'assistant' || !Array.isArray(calls) || calls.length === 0) continue;
      const problem =
        this.name === 'deepseek'
          ? this.#checkDeepSeek(message, calls)
          : index < turnStart
            ? undefined
            : this.name === 'gemini'
              ? this.#checkGemini(calls, index)
              : this.#checkOpenRouter(message, calls, index);
      if (problem) return problem;
    }
    return undefined;
  }

  #record(call: PlannedToolCall, reasoning: string, details: JsonObject[] | undefined): void {
    this.#issued.set(call.id, { reasoning, ...(details && { details }) });
  }

  #issuedFor(calls: unknown[]): Issued | undefined {
    for (const call of calls) {
      const id = (call as { id?: unknown }).id;
      const issued = typeof id === 'string' ? this.#issued.get(id) : undefined;
      if (issued) return issued;
    }
    return undefined;
  }

  #checkDeepSeek(message: Record<string, unknown>, calls: unknown[]): string | undefined {
    const sent = message['reasoning_content'];
    if (typeof sent !== 'string' || sent === '') return DEEPSEEK_ERROR;
    const issued = this.#issuedFor(calls);
    return issued?.reasoning !== undefined && issued.reasoning !== sent
      ? DEEPSEEK_ERROR
      : undefined;
  }

  #checkGemini(calls: unknown[], index: number): string | undefined {
    const first = calls[0] as {
      id?: unknown;
      function?: { name?: unknown };
      extra_content?: unknown;
    };
    const google = (first.extra_content as { google?: { thought_signature?: unknown } } | undefined)
      ?.google;
    const sent = google?.thought_signature;
    const issued = typeof first.id === 'string' ? this.#issued.get(first.id) : undefined;
    if (typeof sent === 'string' && (issued === undefined || issued.signature === sent))
      return undefined;
    const name = String(first.function?.name ?? '');
    return typeof sent === 'string'
      ? `Corrupted thought signature. Additional data, function call \`default_api:${name}\` , position ${index + 1}.`
      : `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${name}\` , position ${index + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`;
  }

  #checkOpenRouter(
    message: Record<string, unknown>,
    calls: unknown[],
    index: number,
  ): string | undefined {
    const sent = message['reasoning_details'];
    if (!Array.isArray(sent) || sent.length === 0) {
      return `messages.${index}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`tool_use\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking`;
    }
    const issued = this.#issuedFor(calls)?.details;
    if (issued === undefined || stableJson(issued) === stableJson(sent)) return undefined;
    return `messages.${index}.content.0: Invalid \`signature\` in \`thinking\` block`;
  }
}

/** JSON with object keys sorted, so two values compare whatever their key order. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, field]) => field !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, field]) => `${JSON.stringify(key)}:${stableJson(field)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
