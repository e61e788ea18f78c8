import { readFileSync } from 'node:fs';
import { InvalidArgumentError } from '../../errors.js';
import type { JsonObject } from '../../json.js';
import type { ChatChunk, ChatRequest, Usage } from '../../model/chatModel.js';

/** A cassette line's format version; a file of another version is refused, not misread. */
export const CASSETTE_VERSION = 1;

/** How a recorded request failed, when it did. */
export interface CassetteError {
  readonly message: string;
  readonly status?: number;
  readonly retryable?: boolean;
}

/**
 * One line of a cassette (JSONL): a request as the `ChatModel` received it (messages, tools,
 * toolChoice, parallelToolCalls, options; never a signal, a header or a key), the chunks it
 * was answered with, in order, the usage the model reported, and the error it ended with.
 */
export interface CassetteExchange {
  readonly version: typeof CASSETTE_VERSION;
  readonly model: string;
  readonly request: JsonObject;
  readonly chunks: readonly ChatChunk[];
  readonly usage?: Usage;
  readonly error?: CassetteError;
}

/** The JSON form of `request` as a cassette keeps it: no signal, no `undefined` fields. */
export function wireFormOf(request: ChatRequest): JsonObject {
  const { signal: _signal, ...data } = request;
  return JSON.parse(JSON.stringify(data)) as JsonObject;
}

/**
 * The exchanges of the cassette at `path`. Throws `InvalidArgumentError` naming the file
 * (and the line) when it is missing, not JSON, or of another format version.
 */
export function readCassette(path: string): CassetteExchange[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new InvalidArgumentError(
      `Cassette ${path} cannot be read: record it first (run the test with RECORD=1 against a real model).`,
      { cause: error },
    );
  }
  const exchanges: CassetteExchange[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    exchanges.push(parseLine(line, path, i + 1));
  }
  return exchanges;
}

function parseLine(line: string, path: string, number: number): CassetteExchange {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    throw new InvalidArgumentError(
      `Cassette ${path} line ${number} is not valid JSON: record the cassette again.`,
      { cause: error },
    );
  }
  const exchange = value as Partial<CassetteExchange> | null;
  if (exchange?.version !== CASSETTE_VERSION) {
    throw new InvalidArgumentError(
      `Cassette ${path} line ${number} has version ${JSON.stringify(exchange?.version)}, expected ${CASSETTE_VERSION}: record the cassette again.`,
    );
  }
  if (typeof exchange.request !== 'object' || !Array.isArray(exchange.chunks)) {
    throw new InvalidArgumentError(
      `Cassette ${path} line ${number} lacks a request or its chunks: record the cassette again.`,
    );
  }
  return exchange as CassetteExchange;
}
