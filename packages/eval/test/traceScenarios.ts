import { type AgentEvent, msgHub, sequentialPipeline, Toolkit, tool, userMsg } from '@rxagent/core';
import { ScriptedChatModel } from '@rxagent/core/testing';
import { recordTrace, type TraceEntry } from '@rxagent/eval';
import { ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom, toArray } from 'rxjs';
import { z } from 'zod';

const weather = tool({
  name: 'get_weather',
  description: 'Weather for a city.',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) =>
    city === 'Atlantis' ? Promise.reject(new Error('no such city')) : `${city}: sunny, 21 °C`,
});
const pay = tool({
  name: 'pay',
  description: 'Pays an amount.',
  parameters: z.object({ amount: z.number() }),
  needsApproval: true,
  execute: ({ amount }) => `paid ${amount}`,
});

/** One agent's stream: two steps with three tool calls (one failing), then an answer. */
export async function weatherRun(): Promise<AgentEvent[]> {
  const agent = new ReActAgent({
    name: 'assistant',
    sysPrompt: 'Use tools.',
    toolkit: new Toolkit([weather]),
    model: new ScriptedChatModel([
      {
        text: 'Checking both cities.',
        toolCalls: [
          { name: 'get_weather', arguments: { city: 'Paris' } },
          { name: 'get_weather', arguments: { city: 'Atlantis' } },
        ],
      },
      { toolCalls: [{ name: 'get_weather', arguments: { city: 'Rome' } }] },
      'Paris and Rome are sunny; Atlantis is unknown.',
    ]),
  });
  return lastValueFrom(
    agent.stream(userMsg('Weather in Paris, Atlantis and Rome?')).pipe(toArray()),
  );
}

/** A call that stops for approval of a payment. */
export async function approvalRun(): Promise<AgentEvent[]> {
  const agent = new ReActAgent({
    name: 'cashier',
    sysPrompt: 'Pay when asked.',
    toolkit: new Toolkit([pay]),
    model: new ScriptedChatModel([{ toolCalls: [{ name: 'pay', arguments: { amount: 500 } }] }]),
  });
  return lastValueFrom(agent.stream(userMsg('Pay 500.')).pipe(toArray()));
}

/** Two agents in a hub, recorded with `recordTrace`: the second hears the first. */
export async function hubRun(): Promise<readonly TraceEntry[]> {
  const planner = new ReActAgent({
    name: 'planner',
    sysPrompt: 'Plan.',
    model: new ScriptedChatModel(['Plan: take the train.']),
  });
  const critic = new ReActAgent({
    name: 'critic',
    sysPrompt: 'Criticise.',
    model: new ScriptedChatModel(['The train is slow.']),
  });
  const recording = recordTrace([planner, critic]);
  await lastValueFrom(
    msgHub({ participants: [planner, critic], announcement: userMsg('Plan a trip.') }, () =>
      sequentialPipeline([planner, critic]),
    ),
  );
  recording.stop();
  return recording.entries;
}

/** A long run (about 1,000 events): `steps` reasoning steps, each with streamed text and a tool call. */
export async function longRun(steps: number): Promise<AgentEvent[]> {
  const script = Array.from({ length: steps }, (_, i) => ({
    text: `Step ${i}: looking at the next city in the list now.`,
    toolCalls: [{ name: 'get_weather', arguments: { city: `City${i}` } }],
  }));
  const agent = new ReActAgent({
    name: 'long',
    sysPrompt: 'Use tools.',
    maxIters: steps + 1,
    toolkit: new Toolkit([weather]),
    model: new ScriptedChatModel([...script, 'All done.']),
  });
  return lastValueFrom(agent.stream(userMsg('Go through the cities.')).pipe(toArray()));
}
