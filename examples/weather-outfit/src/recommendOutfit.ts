import { tool } from '@rxagent/core';
import { z } from 'zod';

const OCCASIONS = ['business', 'casual', 'outdoor'] as const;
type Occasion = (typeof OCCASIONS)[number];

/** What to wear at a given high temperature, per occasion; rows are checked top-down. */
const BY_TEMPERATURE: ReadonlyArray<{ readonly upToC: number } & Record<Occasion, string[]>> = [
  {
    upToC: 10,
    business: ['wool suit', 'long-sleeve shirt', 'overcoat', 'leather shoes'],
    casual: ['sweater', 'jeans', 'warm coat', 'boots'],
    outdoor: ['thermal base layer', 'fleece', 'insulated jacket', 'hiking boots'],
  },
  {
    upToC: 18,
    business: ['suit', 'long-sleeve shirt', 'light trench coat', 'leather shoes'],
    casual: ['long-sleeve top', 'chinos', 'light jacket', 'sneakers'],
    outdoor: ['long-sleeve base layer', 'softshell jacket', 'trail shoes'],
  },
  {
    upToC: 25,
    business: ['lightweight suit', 'cotton shirt', 'leather shoes'],
    casual: ['t-shirt', 'chinos', 'cardigan for the evening', 'sneakers'],
    outdoor: ['t-shirt', 'convertible trousers', 'light fleece', 'trail shoes'],
  },
  {
    upToC: Number.POSITIVE_INFINITY,
    business: ['linen-blend suit', 'breathable short-sleeve dress shirt', 'loafers'],
    casual: ['linen shirt', 'shorts', 'sandals', 'sunglasses'],
    outdoor: ['moisture-wicking shirt', 'shorts', 'sun hat', 'sunscreen'],
  },
];

/**
 * A rule-based outfit for a forecast and an occasion (deterministic, so the offline run and
 * the test agree). Returns one line of JSON: a summary, the items to wear and extra notes.
 */
export function recommendOutfit(input: {
  lowC: number;
  highC: number;
  rainChance: number;
  windKph: number;
  occasion: Occasion;
}): { summary: string; items: string[]; notes: string[] } {
  const row = BY_TEMPERATURE.find((candidate) => input.highC <= candidate.upToC)!;
  const items = [...row[input.occasion]];
  const notes: string[] = [];
  if (input.rainChance >= 50) {
    items.push('compact umbrella');
    notes.push(`${input.rainChance}% chance of rain: prefer water-resistant shoes`);
  }
  if (input.windKph >= 30) notes.push(`wind up to ${input.windKph} km/h: add a windproof layer`);
  if (input.highC - input.lowC >= 8)
    notes.push('big swing between morning and afternoon: dress in layers');
  const summary = `${input.occasion} outfit for ${input.lowC}–${input.highC} °C`;
  return { summary, items, notes };
}

/** `recommend_outfit`: `recommendOutfit` as a tool. */
export const recommendOutfitTool = tool({
  name: 'recommend_outfit',
  description:
    'Suggests an outfit from a forecast (low/high °C, chance of rain, wind) and the occasion.',
  parameters: z.object({
    lowC: z.number(),
    highC: z.number(),
    rainChance: z.number().min(0).max(100),
    windKph: z.number().min(0).default(0),
    occasion: z.enum(OCCASIONS),
  }),
  execute: (args) => JSON.stringify(recommendOutfit(args)),
});
