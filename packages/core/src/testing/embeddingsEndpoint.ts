import type { ServerResponse } from 'node:http';
import { errorBody } from './openAIReply.js';
import { sendJson } from './serveTurn.js';

/** The path the strict server answers embeddings on. */
export const EMBEDDINGS_ENDPOINT = '/v1/embeddings';

/** The most inputs one embeddings request may carry (the API's limit). */
const MAX_INPUTS = 2048;

/**
 * Answers `POST /v1/embeddings` like the API, deterministically: each input text gets a unit
 * vector of hashed word and character-trigram features (texts sharing words score close),
 * `dimensions` long (default 1536, or 3072 for a model named `…large…`), as float arrays or,
 * with `encoding_format: 'base64'`, as base64 of little-endian float32. A malformed request
 * (no model, an empty or non-string input, more than 2048 inputs, a bad `dimensions` or
 * `encoding_format`, an unknown field) is answered 400 with the API's error shape. Returns
 * the rejection, or `undefined` when it answered.
 */
export function answerEmbeddings(
  res: ServerResponse,
  requestId: string,
  text: string,
): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    return reject(
      res,
      requestId,
      `body: could not parse the JSON body of your request (${(error as Error).message})`,
    );
  }
  const problem = embeddingsProblem(body);
  if (problem !== undefined) return reject(res, requestId, problem);
  const request = body as {
    model: string;
    input: string | string[];
    dimensions?: number;
    encoding_format?: string;
  };
  const inputs = typeof request.input === 'string' ? [request.input] : request.input;
  const dimensions = request.dimensions ?? (request.model.includes('large') ? 3072 : 1536);
  const base64 = request.encoding_format === 'base64';
  let tokens = 0;
  const data = inputs.map((input, index) => {
    tokens += Math.ceil(input.length / 4);
    const vector = embedText(input, dimensions);
    return { object: 'embedding', index, embedding: base64 ? toBase64(vector) : vector };
  });
  sendJson({ res, requestId }, 200, {
    object: 'list',
    data,
    model: request.model,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  });
  return undefined;
}

function reject(res: ServerResponse, requestId: string, problem: string): string {
  sendJson({ res, requestId }, 400, errorBody(400, problem));
  return problem;
}

const KNOWN = new Set(['model', 'input', 'dimensions', 'encoding_format', 'user']);

/** What is wrong with an embeddings request body, or `undefined`. */
export function embeddingsProblem(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return 'body: expected a JSON object.';
  const fields = body as Record<string, unknown>;
  const unknown = Object.keys(fields).find((key) => !KNOWN.has(key));
  if (unknown !== undefined) return `Unrecognized request argument supplied: ${unknown}`;
  if (typeof fields['model'] !== 'string' || fields['model'] === '')
    return "'model': you must provide a model parameter.";
  const input = fields['input'];
  const list = typeof input === 'string' ? [input] : input;
  if (!Array.isArray(list) || list.length === 0)
    return "'$.input' is invalid: expected a non-empty string or array of strings.";
  if (list.length > MAX_INPUTS)
    return `'$.input' is invalid: at most ${MAX_INPUTS} inputs per request.`;
  const bad = list.findIndex((item) => typeof item !== 'string' || item === '');
  if (bad !== -1) return `'$.input[${bad}]' is invalid: expected a non-empty string.`;
  const dimensions = fields['dimensions'];
  if (
    dimensions !== undefined &&
    !(Number.isInteger(dimensions) && (dimensions as number) >= 1 && (dimensions as number) <= 3072)
  )
    return `'dimensions': expected an integer from 1 to 3072, got ${JSON.stringify(dimensions)}.`;
  const format = fields['encoding_format'];
  if (format !== undefined && format !== 'float' && format !== 'base64')
    return `'encoding_format': expected 'float' or 'base64', got ${JSON.stringify(format)}.`;
  return undefined;
}

/** The deterministic unit vector of `text` (hashed words and trigrams, signed). */
export function embedText(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  const add = (feature: string, weight: number): void => {
    let hash = 0x811c9dc5;
    for (let i = 0; i < feature.length; i++)
      hash = Math.imul(hash ^ feature.charCodeAt(i), 0x01000193);
    hash >>>= 0;
    vector[hash % dimensions]! += hash & 0x8000_0000 ? -weight : weight;
  };
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    add(`w:${word}`, 1);
    const padded = `^${word}$`;
    for (let i = 0; i + 3 <= padded.length; i++) add(`t:${padded.slice(i, i + 3)}`, 0.25);
  }
  let sum = 0;
  for (const value of vector) sum += value * value;
  const norm = Math.sqrt(sum);
  // float32 on the wire either way: round here so float and base64 answers agree exactly.
  return vector.map((value) => Math.fround(norm === 0 ? 0 : value / norm));
}

function toBase64(vector: readonly number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  for (const [i, value] of vector.entries()) bytes.writeFloatLE(value, i * 4);
  return bytes.toString('base64');
}
