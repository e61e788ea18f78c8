import type { JsonObject, JsonValue } from '../json.js';
import {
  type Guardrail,
  type GuardrailStage,
  type GuardrailVerdict,
  guardrail,
} from './guardrail.js';
import { findPii, type PiiKind, redactPii } from './piiDetectors.js';

/** Options of `piiGuardrail`. */
export interface PiiGuardrailOptions {
  /** Replace each detection by `[REDACTED:<kind>]` and go on, instead of tripping (default false). */
  readonly redact?: boolean;
  /** The stage or stages checked (default input, output and tool results). */
  readonly on?: GuardrailStage | readonly GuardrailStage[];
  /** The guardrail's name (default `pii`). */
  readonly name?: string;
}

/**
 * A guardrail against personal data and secrets (see `findPii` for what it detects: e-mail
 * addresses, phone numbers, Luhn-checked card numbers, national IDs, API keys and tokens,
 * internal URLs). It trips naming the kinds found, or with `redact` replaces each
 * detection by `[REDACTED:<kind>]`. On `toolCall` it looks at every string of the arguments.
 * Deterministic and synchronous: no model, no network.
 *
 * @example
 * ```ts
 * const agent = new ReActAgent({ name: 'desk', sysPrompt, model, guardrails: [piiGuardrail({ redact: true })] });
 * ```
 */
export function piiGuardrail(options: PiiGuardrailOptions = {}): Guardrail {
  const { redact = false, on = ['input', 'output', 'toolResult'], name = 'pii' } = options;
  return guardrail({
    name,
    on,
    check: (content): GuardrailVerdict => {
      const kinds = new Set<PiiKind>();
      const clean = (text: string): string => {
        const matches = findPii(text);
        for (const m of matches) kinds.add(m.kind);
        return matches.length === 0 ? text : redactPii(text, matches);
      };
      const replaced =
        typeof content === 'string'
          ? clean(content)
          : { name: content.name, input: mapStrings(content.input, clean) as JsonObject };
      if (kinds.size === 0) return { tripped: false };
      const reason = `personal data or secrets found: ${[...kinds].sort().join(', ')}`;
      return redact ? { tripped: true, reason, replacement: replaced } : { tripped: true, reason };
    },
  });
}

function mapStrings(value: JsonValue, map: (text: string) => string): JsonValue {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, JsonValue> = {};
    for (const [key, item] of Object.entries(value)) out[key] = mapStrings(item as JsonValue, map);
    return out;
  }
  return value;
}
