/**
 * Patterns of secrets that must never reach a model or its memory. Each match is replaced by
 * a label saying what was removed, so the model knows something was there and can say so.
 * Order matters: a bearer token is matched as a whole before its parts could match others.
 */
const RULES: ReadonlyArray<{
  readonly label: string;
  readonly pattern: RegExp;
  readonly keep?: string;
}> = [
  // `Authorization: Bearer <token>`: keep the scheme, drop the credential.
  { label: 'token', pattern: /\bBearer\s+[A-Za-z0-9\-._~+/]+=*/gi, keep: 'Bearer ' },
  // Provider API keys: OpenAI/Stripe style (sk-, pk-, rk-, with live/test/proj), GitHub, Slack, AWS.
  {
    label: 'api-key',
    pattern: /\b(?:sk|pk|rk)[-_](?:live[-_]|test[-_]|proj[-_])?[A-Za-z0-9_-]{16,}/g,
  },
  { label: 'api-key', pattern: /\bgh[pousr]_[A-Za-z0-9]{30,}\b/g },
  { label: 'api-key', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { label: 'api-key', pattern: /\bAKIA[0-9A-Z]{16}\b/g },
  // URLs of hosts that only exist inside the company network (sentence punctuation after one is kept).
  {
    label: 'internal-url',
    pattern:
      /\bhttps?:\/\/(?:[a-z0-9-]+\.)*(?:[a-z0-9-]+\.(?:internal|local|corp|lan|intranet)|intranet\.[a-z0-9.-]+|10(?:\.\d{1,3}){3}|192\.168(?:\.\d{1,3}){2}|172\.(?:1[6-9]|2\d|3[01])(?:\.\d{1,3}){2})(?::\d+)?(?:[/?#](?:[^\s)\]>"'`]*[^\s)\]>"'`.,;:!?])?)?/gi,
  },
];

/** `text` with every secret replaced by `[REDACTED:<kind>]`, and how many were replaced. */
export function redactSecrets(text: string): { readonly text: string; readonly count: number } {
  let count = 0;
  let redacted = text;
  for (const { label, pattern, keep = '' } of RULES) {
    redacted = redacted.replace(pattern, () => {
      count++;
      return `${keep}[REDACTED:${label}]`;
    });
  }
  return { text: redacted, count };
}
