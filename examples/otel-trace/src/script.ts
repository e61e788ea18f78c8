import type { ScriptedReply } from '@rxagent/core/testing';
import { lastToolOutput } from '@rxagent/example-kit';

/** The researcher's scripted words: look the country up, then report what the tool said. */
export function researcherScript(): ScriptedReply[] {
  return [
    { toolCalls: [{ name: 'country_facts', arguments: { country: 'Japan' } }] },
    (request) => {
      const facts = JSON.parse(lastToolOutput(request, 'country_facts') ?? '{}');
      return `${facts.country}: capital ${facts.capital}, population ${facts.population}.`;
    },
  ];
}

/** The writer's scripted words: one sentence from the researcher's note. */
export function writerScript(): ScriptedReply[] {
  return [
    (request) => {
      const note = String(request.messages.at(-1)?.content ?? '');
      const capital = /capital (\w+)/.exec(note)?.[1] ?? 'unknown';
      const population = Number(/population (\d+)/.exec(note)?.[1] ?? Number.NaN);
      const millions = Number.isNaN(population)
        ? 'an unknown number of'
        : `about ${Math.round(population / 1e6)} million`;
      return `Japan, whose capital is ${capital}, is home to ${millions} people.`;
    },
  ];
}
