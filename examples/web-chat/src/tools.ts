import { tool } from '@rxagent/core';
import { z } from 'zod';

/** Small fixed forecasts, so the offline answers quote real tool output. */
const FORECASTS: Record<string, string> = {
  paris: 'Sunny, 21 °C, light wind',
  london: 'Showers, 14 °C, take an umbrella',
  tokyo: 'Cloudy, 18 °C',
  shanghai: 'Rain, 16–19 °C',
};

/** Looks up the weather of a city in the small data set. */
export const getWeatherTool = tool({
  name: 'get_weather',
  description: 'Current weather of a city.',
  parameters: z.object({ city: z.string().describe('City name, e.g. "Paris"') }),
  execute: ({ city }) => FORECASTS[city.trim().toLowerCase()] ?? `No forecast for ${city}.`,
});

/** Books a hotel: every call waits for the user's Approve or Deny (`needsApproval: true`). */
export const bookHotelTool = tool({
  name: 'book_hotel',
  description: 'Book a hotel room. Needs the user’s approval before it runs.',
  parameters: z.object({
    city: z.string(),
    nights: z.number().int().min(1).max(30),
  }),
  needsApproval: true,
  execute: ({ city, nights }) =>
    `Booked: Hôtel du Parc, ${city}, ${nights} night${nights === 1 ? '' : 's'}, confirmation RX-${city.length}${nights}42.`,
});
