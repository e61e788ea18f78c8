import { tool } from '@rxagent/core';
import { z } from 'zod';

const FACTS: Readonly<Record<string, { capital: string; population: number }>> = {
  france: { capital: 'Paris', population: 68_400_000 },
  japan: { capital: 'Tokyo', population: 124_000_000 },
  kenya: { capital: 'Nairobi', population: 55_100_000 },
};

/** Looks up a country's capital and population in a small bundled table. */
export const countryFacts = tool({
  name: 'country_facts',
  description: 'Capital and population of a country (France, Japan or Kenya).',
  parameters: z.object({ country: z.string().describe('Country name, e.g. "Japan".') }),
  execute: ({ country }) => {
    const facts = FACTS[country.trim().toLowerCase()];
    if (facts === undefined)
      throw new Error(`no facts about "${country}"; try France, Japan or Kenya.`);
    return JSON.stringify({ country, ...facts });
  },
});
