import { tool } from '@rxagent/core';
import { z } from 'zod';
import { DAYS, FORECASTS } from './forecasts.js';

/** The ISO date `offset` days after `today` (a local calendar day, not a UTC instant). */
function dateAfter(today: Date, offset: number): string {
  const day = new Date(today.getFullYear(), today.getMonth(), today.getDate() + offset);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}

/**
 * `get_weather`: the forecast for a city and day from the local data set, as one line of JSON
 * (easy for a model to read and for the offline script to parse). An unknown city is an
 * error result listing the known ones, so the model can recover instead of guessing.
 */
export function getWeatherTool(now: () => Date = () => new Date()) {
  return tool({
    name: 'get_weather',
    description: 'Weather forecast for a city: condition, low/high in °C, chance of rain, wind.',
    parameters: z.object({
      city: z.string().describe('City name, e.g. "Shanghai"'),
      day: z.enum(Object.keys(DAYS) as [keyof typeof DAYS]).default('tomorrow'),
    }),
    execute: ({ city, day }) => {
      const forecast = FORECASTS[city.trim().toLowerCase()]?.[DAYS[day]];
      if (forecast === undefined) {
        const known = Object.keys(FORECASTS).join(', ');
        throw new Error(`No forecast for "${city}". Known cities: ${known}.`);
      }
      return JSON.stringify({ city, day, date: dateAfter(now(), DAYS[day]), ...forecast });
    },
  });
}
