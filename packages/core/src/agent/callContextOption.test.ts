import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { CHECKPOINT_FORMAT } from '../durable/checkpoint.js';
import { InvalidArgumentError } from '../errors.js';
import type { HookEvent } from '../hooks/hookEvent.js';
import type { JsonObject } from '../json.js';
import { userMsg } from '../message/msg.js';
import { InMemorySession } from '../state/inMemorySession.js';
import { EchoAgent, FailingAgent } from '../testing/testAgents.js';
import type { ToolEvent } from '../tool/tool.js';
import { Toolkit } from '../tool/toolkit.js';

/** Records `event.callContext` of every hook event of `agent`, by event type. */
function recordWho(agent: EchoAgent | FailingAgent): [string, unknown][] {
  const seen: [string, unknown][] = [];
  agent.addHook({
    onEvent: (event: HookEvent) => {
      seen.push([event.type, event.callContext]);
    },
  });
  return seen;
}

const WHO = { user: 'ana', tenant: 'acme', roles: ['admin'] };

describe('call(input, { callContext })', () => {
  it('is on every hook event of the call (error events too), a frozen copy', async () => {
    const echo = new EchoAgent({ name: 'echo' });
    const seen = recordWho(echo);
    const who = structuredClone(WHO);
    const events = await lastValueFrom(echo.stream('hi', { callContext: who }).pipe(toArray()));
    who.roles.push('root');
    expect(seen).toEqual([
      ['preCall', WHO],
      ['postCall', WHO],
    ]);
    const preCall = events.find((event) => event.type === 'preCall');
    expect(preCall?.callContext).toEqual(WHO);
    expect(Object.isFrozen(preCall?.callContext)).toBe(true);
    expect(Object.isFrozen(preCall?.callContext?.['roles'])).toBe(true);

    const failing = new FailingAgent({ name: 'failing' });
    const failed = recordWho(failing);
    await expect(lastValueFrom(failing.call('hi', { callContext: WHO }))).rejects.toThrow();
    expect(failed).toEqual([
      ['preCall', WHO],
      ['error', WHO],
    ]);
  });

  it('leaves events without it when the call has none', async () => {
    const echo = new EchoAgent({ name: 'echo' });
    const seen = recordWho(echo);
    await echo.reply('hi');
    expect(seen).toEqual([
      ['preCall', undefined],
      ['postCall', undefined],
    ]);
    expect(seen.every(([, who]) => who === undefined)).toBe(true);
  });

  it('must be a JSON object: anything else is an InvalidArgumentError naming the part, before the call starts', async () => {
    const echo = new EchoAgent({ name: 'echo' });
    const call = (callContext: unknown) =>
      lastValueFrom(echo.call('hi', { callContext: callContext as JsonObject }));
    await expect(call('ana')).rejects.toThrow(
      /options\.callContext must be a JSON object.*a string/,
    );
    await expect(call(null)).rejects.toThrow(InvalidArgumentError);
    await expect(call({ since: new Date() })).rejects.toThrow(/callContext\.since is a Date/);
    await expect(call({ n: 10n })).rejects.toThrow(/callContext\.n is a bigint/);
    const cycle: JsonObject = {};
    cycle['self'] = cycle;
    await expect(call(cycle)).rejects.toThrow(/callContext\.self is a cycle/);
    expect(echo.calls).toEqual([]);
  });

  it('goes on to an agent called as a tool, whose hooks see it', async () => {
    const helper = new EchoAgent({ name: 'helper' });
    const seen = recordWho(helper);
    const toolkit = new Toolkit([helper.asTool()]);
    const events = await lastValueFrom(
      toolkit
        .execute(
          { id: 'c1', name: 'helper', input: { request: 'hi' } },
          { toolCallId: 'c1', signal: new AbortController().signal, callContext: WHO },
        )
        .pipe(toArray()),
    );
    expect((events.at(-1) as Extract<ToolEvent, { type: 'result' }>).result.output).toBe('hi');
    expect(seen).toEqual([
      ['preCall', WHO],
      ['postCall', WHO],
    ]);
  });

  it('is kept with a durable checkpoint, and a recovered call has it', async () => {
    const session = new InMemorySession();
    const echo = new EchoAgent({ name: 'echo', durable: { session, key: 'k' } });
    await echo.reply('hi', { callContext: WHO });
    const saved = (await session.load('k')) as JsonObject;
    expect((saved['call'] as JsonObject)['options']).toEqual({ callContext: WHO });

    // A process died in a call: the checkpoint holds it running.
    const input = [userMsg('again')];
    const call = {
      id: 'x',
      status: 'running',
      input,
      options: { callContext: WHO },
      recoveries: 0,
    };
    const state = echo.stateDict();
    await session.save('k', { format: CHECKPOINT_FORMAT, state, call } as unknown as JsonObject);
    const fresh = new EchoAgent({ name: 'echo', durable: { session, key: 'k' } });
    const seen = recordWho(fresh);
    const reply = await lastValueFrom(fresh.recover());
    expect(reply.content).toEqual([{ type: 'text', text: 'again' }]);
    expect(seen).toEqual([
      ['preCall', WHO],
      ['postCall', WHO],
    ]);
  });
});
