import type { ImageBlock, TextBlock, ToolResultBlock } from '../message/contentBlock.js';
import { checkOptions } from '../options/checkOptions.js';
import type { Hook } from './hook.js';
import { type Redacted, redactSecrets, type SecretPattern } from './redactSecrets.js';

/** Options of `redactSecretsHook`. */
export interface RedactSecretsOptions {
  /**
   * Names of environment variables whose values are secrets (e.g. `['DATABASE_URL']`): each
   * value found in a tool result becomes `[REDACTED:<NAME>]`. Read once, when the hook is made.
   */
  readonly envVars?: readonly string[];
  /** Where `envVars` are read (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** More secret shapes, tried after the built-in ones (`SECRET_PATTERNS`). */
  readonly patterns?: readonly SecretPattern[];
  /** Hook priority (default 10, so later postActing hooks see the clean result). */
  readonly priority?: number;
  /** Called once per tool result that had secrets, with the tool's name and the count. */
  readonly onRedact?: (toolName: string, count: number) => void;
}

/**
 * A `postActing` hook that redacts secrets from every tool result before the model or
 * memory sees it: API keys and tokens (OpenAI `sk-…`, AWS `AKIA…`, GitHub `ghp_…`, Slack
 * `xox…`), JWTs, `Authorization: Bearer …` credentials, PEM private keys, the values of
 * `envVars`, and `patterns`. Each becomes `[REDACTED:<kind>]`. When it redacted anything it
 * adds the count to `event.metadata.redactions`, which the agent stores on the tool-result
 * Msg (`metadata.redactions`). Text parts of block outputs are redacted too; images are not.
 *
 * @example
 * ```ts
 * new ReActAgent({ name: 'assistant', sysPrompt, model, hooks: [redactSecretsHook({ envVars: ['DATABASE_URL'] })] });
 * ```
 */
export function redactSecretsHook(options: RedactSecretsOptions = {}): Hook {
  checkOptions(
    options,
    ['envVars', 'env', 'patterns', 'priority', 'onRedact'],
    'redactSecretsHook',
  );
  const env = options.env ?? (typeof process === 'undefined' ? {} : process.env);
  const secrets: Array<readonly [string, string]> = [];
  for (const name of options.envVars ?? []) {
    const value = env[name];
    if (value !== undefined && value !== '') secrets.push([name, value]);
  }
  const redact = (text: string): Redacted =>
    redactSecrets(text, {
      secrets,
      ...(options.patterns !== undefined && { patterns: options.patterns }),
    });
  return {
    name: 'redact-secrets',
    priority: options.priority ?? 10,
    onEvent(event) {
      if (event.type !== 'postActing') return;
      const { result, count } = redactResult(event.result, redact);
      if (count === 0) return;
      event.result = result;
      const before = event.metadata?.['redactions'];
      event.metadata = {
        ...event.metadata,
        redactions: (typeof before === 'number' ? before : 0) + count,
      };
      options.onRedact?.(result.name, count);
      return event;
    },
  };
}

function redactResult(
  result: ToolResultBlock,
  redact: (text: string) => Redacted,
): { readonly result: ToolResultBlock; readonly count: number } {
  if (typeof result.output === 'string') {
    const { text, count } = redact(result.output);
    return { result: count === 0 ? result : { ...result, output: text }, count };
  }
  let total = 0;
  const output = result.output.map((part): TextBlock | ImageBlock => {
    if (part.type !== 'text') return part;
    const { text, count } = redact(part.text);
    total += count;
    return count === 0 ? part : { ...part, text };
  });
  return { result: total === 0 ? result : { ...result, output }, count: total };
}
