import type { AgentBase } from '@rxagent/core';
import type { EvalCase } from '@rxagent/eval';
import { z } from 'zod';
import type { Build } from '../lib/loadBuild.js';

/** The eval scenario's dataset: `count` cities, each expecting "21 °C" in the answer. */
export function evalDataset(count: number): EvalCase[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `city${i}`,
    input: `Weather in city${i}?`,
    expected: '21 °C',
  }));
}

/**
 * The eval scenario's agent factory on `build`: for each case a fresh ReActAgent (one shared
 * toolkit) with one tool step and a streamed answer, in process. The same factory serves the
 * direct `call()` and `evaluate()`, so both run the same agents doing the same work.
 */
export function evalAgentFactory(
  build: Pick<Build, 'core' | 'testing' | 'react'>,
): (testCase: EvalCase) => AgentBase {
  const { core, react, testing } = build;
  const toolkit = new core.Toolkit([
    core.tool({
      name: 'lookup',
      description: 'Looks a city up.',
      parameters: z.object({ city: z.string() }),
      execute: ({ city }: { city: string }) => `${city}: 21 °C`,
    }),
  ]);
  return (testCase) =>
    new react.ReActAgent({
      name: 'bench',
      sysPrompt: 'Use lookup.',
      toolkit,
      model: new testing.ScriptedChatModel([
        { toolCalls: [{ name: 'lookup', arguments: { city: testCase.id } }] },
        `It is 21 °C in ${testCase.id} today, a fine day for a walk by the river.`,
      ]),
    });
}
