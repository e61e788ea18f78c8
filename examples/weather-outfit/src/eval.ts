/**
 * The weather assistant's evaluation: ten questions (eval/weather.jsonl) answered by the
 * real agent and tools, with the model's side replayed from a cassette, so the eval runs
 * offline, in CI, in a second:
 *
 *   npx -y pnpm@10.34.9 --filter @rxagent/example-weather-outfit eval
 *
 * Record the cassette again after changing the prompt or the tools: `RECORD=1` runs the
 * model (a real one when OPENAI_API_KEY or OPENAI_BASE_URL is set, else the offline script)
 * and writes every exchange to eval/weather.cassette.jsonl; commit the file.
 *
 *   RECORD=1 OPENAI_API_KEY=sk-... npx -y pnpm@10.34.9 --filter @rxagent/example-weather-outfit eval
 */
import { fileURLToPath } from 'node:url';
import type { ChatModel } from '@rxagent/core';
import { recordModel, replayModel } from '@rxagent/core/testing';
import { type EvaluateOptions, includes, toolTrajectory } from '@rxagent/eval';
import { chooseModel } from '@rxagent/example-kit';
import { createAssistant } from './assistant.js';
import { outfitStep } from './outfitModel.js';

export const DATASET = fileURLToPath(new URL('../eval/weather.jsonl', import.meta.url));
export const CASSETTE = fileURLToPath(new URL('../eval/weather.cassette.jsonl', import.meta.url));
/** The day the forecasts are for: fixed, so the dates in tool results (and requests) replay. */
const TODAY = new Date(2026, 5, 1);
const RUNS = 10;

/** The model of an eval run: recording (RECORD=1) or replaying the cassette. */
export function evalModel(env: NodeJS.ProcessEnv = process.env): ChatModel {
  if (!env['RECORD']) return replayModel(CASSETTE);
  const { model } = chooseModel(() => Array.from({ length: RUNS * 3 }, () => outfitStep), env);
  return recordModel(model, CASSETTE);
}

/** The eval's options (what `rxagent-eval src/eval.ts` runs). */
export default function weatherEval(env: NodeJS.ProcessEnv = process.env): EvaluateOptions {
  const model = evalModel(env);
  return {
    name: 'weather-outfit',
    dataset: DATASET,
    agent: () => createAssistant(model, () => TODAY),
    scorers: [
      includes(),
      toolTrajectory((testCase) => {
        const tools = testCase.metadata?.['tools'];
        return Array.isArray(tools) ? tools.map(String) : ['get_weather', 'recommend_outfit'];
      }),
    ],
    concurrency: 4,
  };
}
