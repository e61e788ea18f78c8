import { Toolkit, type ToolResultBlock } from '@rxagent/core';
import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { getWeatherTool } from '../src/getWeather.js';
import { recommendOutfit, recommendOutfitTool } from '../src/recommendOutfit.js';

const toolkit = new Toolkit([getWeatherTool(() => new Date(2025, 0, 31)), recommendOutfitTool]);

async function run(name: string, input: Record<string, unknown>): Promise<ToolResultBlock> {
  const event = await lastValueFrom(
    toolkit.execute(
      { id: 'c1', name, input },
      { signal: new AbortController().signal, toolCallId: 'c1' },
    ),
  );
  if (event.type !== 'result') throw new Error('expected a result');
  return event.result;
}

describe('get_weather', () => {
  it('returns the forecast of the day asked for, dated from today', async () => {
    const result = await run('get_weather', { city: 'Shanghai', day: 'tomorrow' });
    expect(JSON.parse(result.output as string)).toMatchObject({
      date: '2025-02-01',
      lowC: 16,
      highC: 21,
    });
  });

  it('lists the known cities when it has no forecast', async () => {
    const result = await run('get_weather', { city: 'Atlantis' });
    expect(result.isError).toBe(true);
    expect(result.output).toContain('No forecast for "Atlantis". Known cities: shanghai, beijing');
  });
});

describe('recommendOutfit', () => {
  it('dresses for the temperature and the occasion', () => {
    expect(
      recommendOutfit({ lowC: 3, highC: 8, rainChance: 0, windKph: 0, occasion: 'business' }).items,
    ).toContain('overcoat');
    expect(
      recommendOutfit({ lowC: 26, highC: 32, rainChance: 0, windKph: 0, occasion: 'casual' }).items,
    ).toContain('shorts');
  });

  it('adds an umbrella for rain and notes wind and a wide temperature swing', () => {
    const outfit = recommendOutfit({
      lowC: 3,
      highC: 11,
      rainChance: 60,
      windKph: 35,
      occasion: 'outdoor',
    });
    expect(outfit.items).toContain('compact umbrella');
    expect(outfit.notes).toEqual([
      '60% chance of rain: prefer water-resistant shoes',
      'wind up to 35 km/h: add a windproof layer',
      'big swing between morning and afternoon: dress in layers',
    ]);
  });

  it('rejects an unknown occasion as a tool error', async () => {
    const result = await run('recommend_outfit', {
      lowC: 1,
      highC: 2,
      rainChance: 0,
      occasion: 'gala',
    });
    expect(result.isError).toBe(true);
    expect(result.output).toContain('occasion');
  });
});
