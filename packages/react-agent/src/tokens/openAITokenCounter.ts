import {
  checkOptions,
  createTokenCounter,
  InvalidArgumentError,
  type TokenCounter,
} from '@rxagent/core';

/** The byte-pair encodings OpenAI's chat models use. */
export type OpenAIEncoding = 'o200k_base' | 'cl100k_base';

/** Options of `openAITokenCounter`. */
export interface OpenAITokenCounterOptions {
  /** The model whose tokenizer to use (default `"gpt-4o"`); picks the encoding. */
  readonly model?: string;
  /** The encoding, when the model name does not tell it (overrides `model`). */
  readonly encoding?: OpenAIEncoding;
}

/** Models on `cl100k_base`; every newer OpenAI chat model (gpt-4o, 4.1, 5, o-series) uses o200k. */
const CL100K = /^(?:gpt-4(?!o|\.)|gpt-3\.5|text-embedding-(?:ada|3))/;

/**
 * The encoding an OpenAI model uses: `cl100k_base` for gpt-4 and gpt-3.5, `o200k_base` for
 * gpt-4o, gpt-4.1, gpt-5, the o-series and (as the current default) any other name.
 */
export function encodingForModel(model: string): OpenAIEncoding {
  return CL100K.test(model) ? 'cl100k_base' : 'o200k_base';
}

/**
 * Loads an exact `TokenCounter` for OpenAI chat models, for the `context.countTokens` option
 * of a ReActAgent. Strings are counted with the model's tokenizer (`gpt-tokenizer`, loaded
 * by this call only: importing rxagent never loads its vocabulary, a few MB), the messages
 * with OpenAI's documented chat overhead (see `createTokenCounter`); tool schemas and tool
 * calls are close approximations, since OpenAI does not document how it renders them.
 * Special-token text such as `<|endoftext|>` in a message counts as plain text.
 * Resolves once the tokenizer is loaded; rejects with `InvalidArgumentError` for an unknown
 * encoding.
 *
 * @example
 * ```ts run
 * const countTokens = await openAITokenCounter({ model: 'gpt-4o' });
 * const tokens = countTokens({ systemPrompt: 'Be brief.', messages: [userMsg('Hi!')], tools: [] });
 * console.log(tokens); // the prompt tokens OpenAI would bill for this request
 * ```
 */
export async function openAITokenCounter(
  options: OpenAITokenCounterOptions = {},
): Promise<TokenCounter> {
  checkOptions(options, ['model', 'encoding'], 'openAITokenCounter');
  const encoding = options.encoding ?? encodingForModel(options.model ?? 'gpt-4o');
  const tokenizer = await loadEncoding(encoding);
  // Special tokens in user text are text, not control tokens (and must not throw).
  const plain = { disallowedSpecial: new Set<string>() };
  return createTokenCounter((text) => (text === '' ? 0 : tokenizer.countTokens(text, plain)));
}

interface Tokenizer {
  countTokens(text: string, options: { disallowedSpecial: Set<string> }): number;
}

async function loadEncoding(encoding: OpenAIEncoding): Promise<Tokenizer> {
  switch (encoding) {
    case 'o200k_base':
      return import('gpt-tokenizer/encoding/o200k_base');
    case 'cl100k_base':
      return import('gpt-tokenizer/encoding/cl100k_base');
    default:
      throw new InvalidArgumentError(
        `openAITokenCounter: unknown encoding ${JSON.stringify(encoding)}; use 'o200k_base' or 'cl100k_base'.`,
      );
  }
}
