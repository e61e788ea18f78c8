import { readFileSync } from 'node:fs';
import { InvalidArgumentError, type JsonObject, type JsonValue, type Msg } from '@rxagent/core';

/** One case of a dataset: what the agent is asked, and what a scorer compares it with. */
export interface EvalCase {
  /** Unique in the dataset; names the case in the report. */
  readonly id: string;
  /** A user message's text, or the messages to call the agent with. */
  readonly input: string | Msg | readonly Msg[];
  /** What a scorer expects (`exactMatch`, `includes` compare the reply's text with it). */
  readonly expected?: JsonValue;
  readonly metadata?: JsonObject;
}

/**
 * The cases of a dataset: an array as given, or the JSONL file at a path (one case per
 * line, blank lines skipped). Throws `InvalidArgumentError` naming the line or the case
 * for a line that is not JSON, a case without a string `id` or an `input`, or an id used
 * twice.
 */
export function loadDataset(dataset: readonly EvalCase[] | string): readonly EvalCase[] {
  const cases = typeof dataset === 'string' ? readJsonl(dataset) : dataset;
  if (!Array.isArray(cases)) {
    throw new InvalidArgumentError('evaluate: dataset must be an array of cases or a JSONL path.');
  }
  const seen = new Set<string>();
  cases.forEach((testCase: Partial<EvalCase> | null, index) => {
    if (typeof testCase?.id !== 'string' || testCase.id === '') {
      throw new InvalidArgumentError(
        `evaluate: ${caseName(dataset, index)} needs a non-empty string "id".`,
      );
    }
    if (testCase.input === undefined) {
      throw new InvalidArgumentError(
        `evaluate: ${caseName(dataset, index)} ("${testCase.id}") has no "input".`,
      );
    }
    if (seen.has(testCase.id)) {
      throw new InvalidArgumentError(
        `evaluate: ${caseName(dataset, index)} repeats the id "${testCase.id}"; every case needs its own id.`,
      );
    }
    seen.add(testCase.id);
  });
  return cases;
}

/** Where a bad case is, for its error (made only then: no string per valid case). */
function caseName(dataset: readonly EvalCase[] | string, index: number): string {
  return typeof dataset === 'string' ? `${dataset} case ${index + 1}` : `dataset[${index}]`;
}

function readJsonl(path: string): EvalCase[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new InvalidArgumentError(`evaluate: dataset ${path} cannot be read.`, { cause: error });
  }
  const cases: EvalCase[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    try {
      cases.push(JSON.parse(line) as EvalCase);
    } catch (error) {
      throw new InvalidArgumentError(
        `evaluate: dataset ${path} line ${index + 1} is not valid JSON.`,
        { cause: error },
      );
    }
  });
  return cases;
}
