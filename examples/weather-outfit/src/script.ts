import type { ScriptedReply } from '@rxagent/core/testing';
import { lastToolOutput } from '@rxagent/example-kit';

/**
 * What the scripted model "says" offline. Only its words are scripted: each step reads the
 * real tool results in the request, so the numbers in the answer come from the tools.
 * `paceMs` spaces the streamed words out, so a human watching sees tokens arrive.
 */
export function weatherScript(paceMs = 0): ScriptedReply[] {
  return [
    {
      chunkDelayMs: paceMs,
      text: "I'll check tomorrow's forecast for Shanghai first.",
      toolCalls: [{ name: 'get_weather', arguments: { city: 'Shanghai', day: 'tomorrow' } }],
    },
    (request) => {
      const weather = JSON.parse(lastToolOutput(request, 'get_weather') ?? '{}');
      const { lowC, highC, rainChance, windKph } = weather;
      return {
        toolCalls: [
          {
            name: 'recommend_outfit',
            arguments: { lowC, highC, rainChance, windKph, occasion: 'business' },
          },
        ],
      };
    },
    (request) => {
      const weather = JSON.parse(lastToolOutput(request, 'get_weather') ?? '{}');
      const outfit = JSON.parse(lastToolOutput(request, 'recommend_outfit') ?? '{}');
      const notes = (outfit.notes as string[]).map((note) => `- ${note}`).join('\n');
      const text = [
        `Tomorrow (${weather.date}) Shanghai expects ${weather.condition}, ${weather.lowC}–${weather.highC} °C, rain chance ${weather.rainChance}%.`,
        `For a business day I suggest: ${(outfit.items as string[]).join(', ')}.`,
        notes,
      ]
        .filter(Boolean)
        .join('\n');
      return { text, chunkDelayMs: paceMs };
    },
  ];
}
