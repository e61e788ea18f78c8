/**
 * Names users often write for an option that has another name here. A suggestion is made
 * only when the right name is a key of the options object being checked.
 */
const COMMON_MISTAKES: Readonly<Record<string, readonly string[]>> = {
  baseUrl: ['baseURL'],
  baseurl: ['baseURL'],
  base_url: ['baseURL'],
  url: ['baseURL'],
  api_key: ['apiKey'],
  apikey: ['apiKey'],
  instructions: ['sysPrompt'],
  systemPrompt: ['sysPrompt'],
  system_prompt: ['sysPrompt'],
  system: ['sysPrompt', 'systemPrompt'],
  prompt: ['sysPrompt'],
  tools: ['toolkit'],
  maxIterations: ['maxIters'],
  maxIteration: ['maxIters'],
  maxSteps: ['maxIters'],
  maxTurns: ['maxIters'],
  max_iters: ['maxIters'],
  parallelTools: ['parallelToolCalls'],
  parallel_tool_calls: ['parallelToolCalls'],
  tool_choice: ['toolChoice'],
  max_tokens: ['maxTokens'],
  timeout: ['timeoutMs'],
  llm: ['model'],
  modelName: ['model'],
  systemMessage: ['sysPrompt'],
  schema: ['parameters', 'structuredOutput'],
  inputSchema: ['parameters'],
  args: ['parameters'],
  handler: ['execute'],
  run: ['execute'],
  fn: ['execute'],
  func: ['execute'],
  requiresApproval: ['needsApproval'],
  requireApproval: ['needsApproval'],
  approval: ['needsApproval'],
  endpoint: ['baseURL', 'url'],
  host: ['baseURL', 'url'],
  key: ['apiKey'],
  token: ['apiKey'],
  judge: ['finishGuard'],
  guard: ['finishGuard'],
  responseFormat: ['structuredOutput'],
  response_format: ['structuredOutput'],
  abortSignal: ['signal'],
  agents: ['participants'],
  announce: ['announcement'],
  members: ['participants'],
  keep: ['keepRecent'],
  keepLast: ['keepRecent'],
  maxContextTokens: ['maxTokens'],
  contextWindow: ['maxTokens'],
  summarizer: ['summaryModel'],
  tokenCounter: ['countTokens'],
  retries: ['maxRetries', 'maxStructuredRetries'],
  maxRetries: ['maxStructuredRetries'],
  maxHops: ['maxHandoffs'],
  parallel: ['concurrent', 'parallelToolCalls'],
  maxConcurrency: ['concurrency', 'toolConcurrency'],
};

/** Edit distance between two short strings (insertions, deletions, substitutions). */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
    }
    previous = current;
  }
  return previous[b.length] as number;
}

/** The known key `key` was most likely meant as, or `undefined` when none is close. */
export function suggestOption(key: string, known: Iterable<string>): string | undefined {
  const names = [...known];
  const mistake = COMMON_MISTAKES[key]?.find((name) => names.includes(name));
  if (mistake !== undefined) return mistake;
  const lower = key.toLowerCase().replaceAll('_', '');
  const sameLetters = names.find((name) => name.toLowerCase() === lower);
  if (sameLetters !== undefined) return sameLetters;
  let best: string | undefined;
  let bestDistance = Math.min(2, Math.floor(key.length / 3));
  for (const name of names) {
    const d = distance(lower, name.toLowerCase());
    if (d <= bestDistance && (best === undefined || d < bestDistance)) {
      best = name;
      bestDistance = d;
    }
  }
  return best;
}

/**
 * Throws a TypeError naming the first key of `options` that is not in `known`, and the key
 * it was most likely meant as ("did you mean baseURL?"), so a misspelt option fails at
 * construction instead of being ignored. `owner` names the options object in the message
 * (`'ReActAgent'`, `'OpenAIChatModel'`). Keys whose value is `undefined` are checked too:
 * `{ tools: undefined }` is still a misspelling. Nothing is checked when `options` is not an
 * object (the caller's own validation reports that).
 *
 * @example
 * ```ts
 * checkOptions({ baseUrl: 'http://localhost:8000/v1' }, ['model', 'baseURL'], 'OpenAIChatModel');
 * // TypeError: OpenAIChatModel: unknown option "baseUrl" (did you mean "baseURL"?). Known options: model, baseURL.
 * ```
 */
export function checkOptions(
  options: object | undefined | null,
  known: Iterable<string>,
  owner: string,
): void {
  if (options === null || typeof options !== 'object') return;
  // On hot paths (every Msg, every request): no array of keys, no Set per call.
  const set = known instanceof Set ? (known as ReadonlySet<string>) : undefined;
  const list = set !== undefined ? undefined : Array.isArray(known) ? known : [...known];
  for (const key in options) {
    if (set !== undefined ? set.has(key) : (list as readonly string[]).includes(key)) continue;
    if (!Object.hasOwn(options, key)) continue;
    const all = [...(set ?? (list as readonly string[]))];
    const suggestion = suggestOption(key, all);
    const hint = suggestion === undefined ? '' : ` (did you mean "${suggestion}"?)`;
    throw new TypeError(
      `${owner}: unknown option "${key}"${hint}. Known options: ${all.join(', ')}.`,
    );
  }
}

/**
 * The option names of the options type `T`, each listed once as `name: true`: the compiler
 * rejects a list that misses a key of `T` or names one `T` does not have, so an option
 * added to the type cannot be forgotten by `checkOptions`.
 *
 * @example
 * ```ts
 * interface GreeterOptions { readonly greeting?: string; readonly loud?: boolean }
 * const GREETER_KEYS = optionNames<GreeterOptions>({ greeting: true, loud: true });
 * checkOptions({ greetng: 'hi' }, GREETER_KEYS, 'Greeter'); // TypeError: … did you mean "greeting"?
 * ```
 */
export function optionNames<T extends object>(
  keys: {
    readonly [K in keyof T]-?: true;
  },
): readonly string[] {
  return Object.freeze(Object.keys(keys));
}
