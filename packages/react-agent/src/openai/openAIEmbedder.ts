import { checkOptions, type Embedder, InvalidArgumentError } from '@rxagent/core';
import OpenAI from 'openai';
import { checkBaseURL } from './checkBaseURL.js';
import { toModelError } from './toModelError.js';

/** Options of `new OpenAIEmbedder()`. */
export interface OpenAIEmbedderOptions {
  /** The embedding model, e.g. `'text-embedding-3-small'`. */
  readonly model: string;
  /** Default: `OPENAI_API_KEY` (a `baseURL` other than OpenAI's needs none). */
  readonly apiKey?: string;
  /** An OpenAI-compatible server, e.g. `http://localhost:11434/v1`; default `OPENAI_BASE_URL` or OpenAI. */
  readonly baseURL?: string;
  /**
   * Shortens the vectors (text-embedding-3 models); default: the model's own length, which
   * is then learned from the first answer (`dimensions` reads 0 until then).
   */
  readonly dimensions?: number;
  /** Retries of a failed request (429, 5xx, network; default 2), by the SDK. */
  readonly maxRetries?: number;
}

/** Inputs per request: the API accepts at most 2048. */
const BATCH = 2048;

/**
 * An `Embedder` on the OpenAI embeddings API (`POST /v1/embeddings`) or any compatible
 * server, through the openai SDK (vectors travel as base64 and are decoded by the SDK).
 * More than 2048 texts go in several requests; vectors come back in input order. A failed
 * request rejects with a `ModelError` naming the model and server.
 *
 * @example
 * ```ts
 * const embedder = new OpenAIEmbedder({ model: 'text-embedding-3-small', dimensions: 256 });
 * const [vector] = await embedder.embed(['Alice is vegetarian']);
 * ```
 */
export class OpenAIEmbedder implements Embedder {
  readonly name: string;
  #dimensions: number;
  readonly #client: OpenAI;
  readonly #model: string;
  readonly #requested: number | undefined;

  constructor(options: OpenAIEmbedderOptions) {
    const where = 'new OpenAIEmbedder()';
    if (typeof options !== 'object' || options === null)
      throw new InvalidArgumentError(
        `${where}: expected options { model, apiKey?, baseURL?, dimensions? }.`,
      );
    checkOptions(options, ['model', 'apiKey', 'baseURL', 'dimensions', 'maxRetries'], where);
    const { model, dimensions } = options;
    if (typeof model !== 'string' || model === '')
      throw new InvalidArgumentError(
        `${where}: model must be a non-empty string, e.g. 'text-embedding-3-small'.`,
      );
    if (dimensions !== undefined && !(Number.isInteger(dimensions) && dimensions > 0))
      throw new InvalidArgumentError(
        `${where}: dimensions must be a positive integer, got ${String(dimensions)}.`,
      );
    const fromEnv = process.env['OPENAI_BASE_URL'];
    const baseURL = options.baseURL
      ? checkBaseURL(options.baseURL, 'baseURL')
      : fromEnv
        ? checkBaseURL(fromEnv, 'OPENAI_BASE_URL')
        : undefined;
    const apiKey =
      options.apiKey || process.env['OPENAI_API_KEY'] || (baseURL ? 'not-needed' : undefined);
    if (!apiKey)
      throw new InvalidArgumentError(
        'OpenAIEmbedder needs an API key for api.openai.com: pass { apiKey } or set OPENAI_API_KEY (a local server needs only { baseURL }).',
      );
    this.#client = new OpenAI({
      apiKey,
      maxRetries: options.maxRetries ?? 2,
      logLevel: 'off',
      ...(baseURL && { baseURL }),
    });
    this.#model = model;
    this.#requested = dimensions;
    this.#dimensions = dimensions ?? 0;
    this.name = dimensions === undefined ? `openai:${model}` : `openai:${model}@${dimensions}`;
  }

  /** The length of every vector (0 until the first answer when `dimensions` was not given). */
  get dimensions(): number {
    return this.#dimensions;
  }

  async embed(
    texts: readonly string[],
    options: { readonly signal?: AbortSignal } = {},
  ): Promise<number[][]> {
    if (!Array.isArray(texts) || texts.some((text) => typeof text !== 'string'))
      throw new InvalidArgumentError('OpenAIEmbedder.embed(): texts must be an array of strings.');
    const out: number[][] = [];
    for (let start = 0; start < texts.length; start += BATCH) {
      // The API rejects an empty string: it is sent as one space, which embeds as nothing.
      const input = texts.slice(start, start + BATCH).map((text) => (text === '' ? ' ' : text));
      out.push(...(await this.#request(input, options.signal)));
    }
    return out;
  }

  async #request(input: string[], signal: AbortSignal | undefined): Promise<number[][]> {
    try {
      const response = await this.#client.embeddings.create(
        {
          model: this.#model,
          input,
          // No encoding_format: the SDK then asks for base64 and decodes it (a quarter the bytes).
          ...(this.#requested !== undefined && { dimensions: this.#requested }),
        },
        signal === undefined ? {} : { signal },
      );
      const vectors = [...response.data]
        .sort((a, b) => a.index - b.index)
        .map((d) => Array.from(d.embedding));
      if (vectors.length !== input.length)
        throw new Error(`the server returned ${vectors.length} vectors for ${input.length} inputs`);
      if (this.#dimensions === 0 && vectors[0]) this.#dimensions = vectors[0].length;
      return vectors;
    } catch (error) {
      throw toModelError(error, {
        model: this.#model,
        baseURL: this.#client.baseURL,
        timeoutMs: 600_000,
      });
    }
  }
}
