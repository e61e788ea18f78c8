import { Toolkit, tool } from '@rxagent/core';
import { ScriptedChatModel, type ScriptedReply } from '@rxagent/core/testing';
import { ReActAgent } from '@rxagent/react-agent';
import { z } from 'zod';

/** A ReActAgent with a `get_weather` tool (sunny in Paris, no data elsewhere) on a scripted model. */
export function weatherAgent(script: ScriptedReply[]): ReActAgent {
  const weather = tool({
    name: 'get_weather',
    description: 'Current weather of a city.',
    parameters: z.object({ city: z.string() }),
    execute: ({ city }) => (city === 'Paris' ? 'Sunny, 21°C' : `No data for ${city}`),
  });
  return new ReActAgent({
    name: 'assistant',
    sysPrompt: 'You answer weather questions.',
    model: new ScriptedChatModel(script),
    toolkit: new Toolkit([weather]),
  });
}
