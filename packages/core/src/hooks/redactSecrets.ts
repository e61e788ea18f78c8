import { checkOptions } from '../options/checkOptions.js';

/** A kind of secret: every match of `pattern` is replaced by `[REDACTED:<label>]`. */
export interface SecretPattern {
  readonly label: string;
  /** Matched globally (a `g` flag is added when missing). */
  readonly pattern: RegExp;
  /** Text of the match kept before the label (e.g. `"Bearer "`). */
  readonly keep?: string;
}

/**
 * The secret shapes `redactSecrets` knows, in the order they are tried: bearer tokens (the
 * scheme is kept), PEM private keys, JWTs, OpenAI/Stripe-style `sk-`/`rk-`/`pk-` keys, AWS
 * access key ids, GitHub tokens, Slack tokens. Each needs enough length (and for bare keys
 * a digit) that ordinary words and identifiers such as `sk-learn` stay.
 */
export const SECRET_PATTERNS: readonly SecretPattern[] = [
  {
    label: 'token',
    pattern: /\b[Bb]earer\s+(?=[A-Za-z0-9\-._~+/]*[0-9\-._~+/])[A-Za-z0-9\-._~+/]{6,}=*/g,
    keep: 'Bearer ',
  },
  {
    label: 'private-key',
    pattern:
      /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----|$)/g,
  },
  { label: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{10,}/g },
  {
    label: 'api-key',
    pattern: /\b(?:sk|pk|rk)[-_](?:live|test|proj|ant|admin|svcacct)[-_][A-Za-z0-9_-]{16,}/g,
  },
  { label: 'api-key', pattern: /\b(?:sk|pk|rk)[-_](?=[A-Za-z0-9]*\d)[A-Za-z0-9]{20,}\b/g },
  { label: 'api-key', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { label: 'api-key', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})/g },
  { label: 'api-key', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
];

/** Environment values shorter than this are not redacted: they would match ordinary text. */
export const MIN_SECRET_VALUE_LENGTH = 6;

/** What `redactSecrets` returns. */
export interface Redacted {
  readonly text: string;
  /** How many secrets were replaced. */
  readonly count: number;
}

/**
 * Replaces every secret in `text` by `[REDACTED:<label>]`, so a model (and its memory, and
 * any saved session) learns that something was there but not what: the shapes of
 * `SECRET_PATTERNS`, then `secrets` (exact values, labelled by name; values shorter than 6
 * characters are skipped), then `patterns`. Pure; returns `text` itself when nothing matched.
 */
export function redactSecrets(
  text: string,
  options: {
    readonly secrets?: ReadonlyArray<readonly [label: string, value: string]>;
    readonly patterns?: readonly SecretPattern[];
  } = {},
): Redacted {
  checkOptions(options, ['secrets', 'patterns'], 'redactSecrets');
  let count = 0;
  let redacted = text;
  const apply = (pattern: RegExp, replacement: string): void => {
    redacted = redacted.replace(pattern, () => {
      count++;
      return replacement;
    });
  };
  for (const { label, pattern, keep = '' } of SECRET_PATTERNS) {
    apply(pattern, `${keep}[REDACTED:${label}]`);
  }
  for (const [label, value] of longestFirst(options.secrets ?? [])) {
    if (value.length < MIN_SECRET_VALUE_LENGTH || !redacted.includes(value)) continue;
    apply(new RegExp(escapeRegExp(value), 'g'), `[REDACTED:${label}]`);
  }
  for (const { label, pattern, keep = '' } of options.patterns ?? []) {
    apply(globalOf(pattern), `${keep}[REDACTED:${label}]`);
  }
  return { text: count === 0 ? text : redacted, count };
}

function longestFirst(
  secrets: ReadonlyArray<readonly [string, string]>,
): ReadonlyArray<readonly [string, string]> {
  return [...secrets].sort((a, b) => b[1].length - a[1].length);
}

function globalOf(pattern: RegExp): RegExp {
  return pattern.global ? pattern : new RegExp(pattern.source, `${pattern.flags}g`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
