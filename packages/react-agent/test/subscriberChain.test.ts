import { type Hook, InMemorySession, Toolkit, tool, userMsg } from '@rxagent/core';
import { ScriptedChatModel, type ScriptedTurn } from '@rxagent/core/testing';
import { ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom, Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

type Subscribe = (...args: unknown[]) => unknown;

/**
 * Every `Observable.subscribe` made while `run` runs, the caller's own included: the length of
 * the chain of subscribers a call holds, plus whatever relays were made on the way.
 */
async function subscriptionsOf(run: () => Promise<unknown>): Promise<number> {
  const proto = Observable.prototype as unknown as { subscribe: Subscribe };
  const subscribe = proto.subscribe;
  let count = 0;
  proto.subscribe = function (this: unknown, ...args: unknown[]) {
    count++;
    return subscribe.apply(this, args);
  };
  try {
    await run();
  } finally {
    proto.subscribe = subscribe;
  }
  return count;
}

const weather = tool({
  name: 'get_weather',
  description: 'The weather in a city.',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `Sunny in ${city}.`,
});

const TEXT: ScriptedTurn[] = [{ text: 'Hello there, how are you?' }];
const TOOL_ROUND: ScriptedTurn[] = [
  { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] },
  { text: 'Sunny in Paris.' },
];

function agentOn(turns: ScriptedTurn[], options: { hooks?: Hook[]; durable?: boolean } = {}) {
  return new ReActAgent({
    name: 'assistant',
    sysPrompt: 'Be brief.',
    model: new ScriptedChatModel(turns),
    toolkit: new Toolkit([weather]),
    ...(options.hooks && { hooks: options.hooks }),
    ...(options.durable && { durable: { session: new InMemorySession(), key: 'chat' } }),
  });
}

// One hook on every event type, reasoning chunks included: every event is built and dispatched.
const everyEvent: Hook = { name: 'every-event', onEvent: () => undefined };

/**
 * The subscribers one call makes, counted: the caller's subscription to `call()` (or
 * `stream()`), `doCall`'s Observable, and one per model request — nothing relays in between,
 * whether a hook or a `stream()` listens to every event (each reasoning chunk included).
 */
describe('the subscriber chain from call() to the model', () => {
  it('is the caller, doCall and the model request: three subscriptions for one reply', async () => {
    const agent = agentOn(TEXT);
    expect(await subscriptionsOf(() => lastValueFrom(agent.call(userMsg('Hi'))))).toBe(3);
  });

  it('adds one subscription per further model request (tools run without one)', async () => {
    const agent = agentOn(TOOL_ROUND);
    expect(await subscriptionsOf(() => lastValueFrom(agent.call(userMsg('Weather?'))))).toBe(4);
  });

  it('is as short under stream(), which emits the call itself rather than relaying call()', async () => {
    const agent = agentOn(TEXT);
    const events: string[] = [];
    const count = await subscriptionsOf(
      () =>
        new Promise((resolve, reject) => {
          agent.stream(userMsg('Hi')).subscribe({
            next: (event) => events.push(event.type),
            error: reject,
            complete: () => resolve(events),
          });
        }),
    );
    expect(events).toContain('reasoningChunk');
    expect(events.at(-1)).toBe('reply');
    expect(count).toBe(3);
  });

  it('is as short with a hook on every event', async () => {
    const agent = agentOn(TEXT, { hooks: [everyEvent] });
    const count = await subscriptionsOf(() => lastValueFrom(agent.call(userMsg('Hi'))));
    expect(count).toBe(3);
  });

  it('adds only the load and the saves of a durable call', async () => {
    const agent = agentOn(TEXT, { durable: true });
    const count = await subscriptionsOf(() => lastValueFrom(agent.call(userMsg('Hi'))));
    // The three, plus the first call's load, the saves at its start, after its step (two:
    // the step as an Observable and the save) and at its end.
    expect(count).toBe(9);
  });
});
