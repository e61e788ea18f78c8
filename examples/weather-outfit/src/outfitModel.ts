import type { ChatRequest } from '@rxagent/core';
import type { ScriptedTurn } from '@rxagent/core/testing';
import { lastToolOutput, wireText } from '@rxagent/example-kit';
import { type Day, FORECASTS } from './forecasts.js';

const OCCASIONS = ['business', 'casual', 'outdoor'] as const;

/** The city, day and occasion a question asks about (what a real model would read from it). */
export function readQuestion(question: string): { city: string; day: Day; occasion: string } {
  const lower = question.toLowerCase();
  const known = Object.keys(FORECASTS).find((city) => lower.includes(city));
  const city =
    known ?? /\b(?:in|for|around) ([A-Z][a-z]+)/.exec(question)?.[1]?.toLowerCase() ?? 'unknown';
  const day: Day = lower.includes('day after tomorrow')
    ? 'day_after_tomorrow'
    : lower.includes('today')
      ? 'today'
      : 'tomorrow';
  const occasion = OCCASIONS.find((name) => lower.includes(name)) ?? 'casual';
  return { city: city[0]!.toUpperCase() + city.slice(1), day, occasion };
}

/**
 * One step of the offline weather assistant, from the request alone: ask for the forecast,
 * then for an outfit, then answer from both tool results (or say the city is unknown). It
 * keeps no state, so one model can serve many runs at once.
 */
export function outfitStep(request: ChatRequest): ScriptedTurn {
  const question = request.messages.find((message) => message.role === 'user');
  const { city, day, occasion } = readQuestion(question ? wireText(question) : '');
  const forecast = lastToolOutput(request, 'get_weather');
  if (forecast === undefined) {
    return { toolCalls: [{ name: 'get_weather', arguments: { city, day } }] };
  }
  if (!forecast.startsWith('{')) {
    return { text: `Sorry, I have no forecast for ${city}. ${forecast.replace(/^.*?: /, '')}` };
  }
  const weather = JSON.parse(forecast);
  const outfit = lastToolOutput(request, 'recommend_outfit');
  if (outfit === undefined) {
    const { lowC, highC, rainChance, windKph } = weather;
    return {
      toolCalls: [
        { name: 'recommend_outfit', arguments: { lowC, highC, rainChance, windKph, occasion } },
      ],
    };
  }
  const { items, notes } = JSON.parse(outfit) as { items: string[]; notes: string[] };
  const when = day.replaceAll('_', ' ');
  return {
    text: [
      `${city} ${when} (${weather.date}): ${weather.condition}, ${weather.lowC}–${weather.highC} °C, rain chance ${weather.rainChance}%.`,
      `For ${occasion === 'outdoor' ? 'an' : 'a'} ${occasion} day: ${items.join(', ')}.`,
      ...notes.map((note) => `- ${note}`),
    ].join('\n'),
  };
}
