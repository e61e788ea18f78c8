import { type ChatModel, Toolkit } from '@rxagent/core';
import { ReActAgent } from '@rxagent/react-agent';
import { getWeatherTool } from './getWeather.js';
import { recommendOutfitTool } from './recommendOutfit.js';

/** The travel assistant of the demo: one ReActAgent with the two tools. */
export function createAssistant(model: ChatModel, now?: () => Date): ReActAgent {
  return new ReActAgent({
    name: 'assistant',
    sysPrompt:
      'You are a concise travel assistant. Use get_weather for forecasts and recommend_outfit ' +
      'for clothing; never guess the weather. Quote the temperatures you were given.',
    model,
    toolkit: new Toolkit([getWeatherTool(now), recommendOutfitTool]),
  });
}
