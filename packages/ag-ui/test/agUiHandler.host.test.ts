import { HttpAgent } from '@ag-ui/client';
import type { Event } from '@ag-ui/core';
import { agUiHandler } from '@rxagent/ag-ui';
import { AgentHost, InMemorySession } from '@rxagent/core';
import { afterEach, describe, expect, it } from 'vitest';
import { type Loopback, listen, runClient, types } from './loopback.js';
import { weatherAgent } from './weatherAgent.js';

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function client(url: string, threadId: string, text: string): HttpAgent {
  const agent = new HttpAgent({ url, threadId });
  agent.addMessage({ id: `u-${threadId}-${text}`, role: 'user', content: text });
  return agent;
}

/** The events of a server-sent-events body. */
function sseEvents(text: string): Event[] {
  return text
    .split('\n\n')
    .filter((frame) => frame.startsWith('data: '))
    .map((frame) => JSON.parse(frame.slice('data: '.length)) as Event);
}

/** The text of a run's TEXT_MESSAGE_CONTENT events. */
function textOf(events: readonly Event[]): string {
  return events.map((e) => (e.type === 'TEXT_MESSAGE_CONTENT' ? e.delta : '')).join('');
}

describe('agUiHandler with an AgentHost', () => {
  it('serves every AG-UI thread as its own host thread, saved to the host session', async () => {
    const session = new InMemorySession();
    const host = new AgentHost({
      create: (threadId) =>
        weatherAgent([
          (request) =>
            `${threadId} heard ${request.messages.filter((m) => m.role === 'user').length}`,
          (request) =>
            `${threadId} heard ${request.messages.filter((m) => m.role === 'user').length}`,
        ]),
      session,
    });
    server = await listen(agUiHandler(host));
    const a1 = await runClient(client(server.url, 'A', 'hello'));
    const b1 = await runClient(client(server.url, 'B', 'hello'));
    const a2 = await runClient(client(server.url, 'A', 'again'));

    expect([textOf(a1.events), textOf(b1.events), textOf(a2.events)]).toEqual([
      'A heard 1',
      'B heard 1',
      'A heard 2',
    ]);
    expect(await session.list()).toEqual(['A', 'B']);
  });

  it('lets a second client follow a running run with GET ?threadId=, seeing the same events', async () => {
    const host = new AgentHost({
      create: () =>
        weatherAgent([{ text: 'one two three four five six', chunkSize: 4, chunkDelayMs: 30 }]),
    });
    server = await listen(agUiHandler(host));
    const own: Event[] = [];
    let followed: Promise<Event[]> | undefined;
    const url = server.url;
    const run = runClient(client(url, 'T', 'count'), {}, (event) => {
      if (event.type !== 'TEXT_MESSAGE_CONTENT' || followed !== undefined) return;
      followed = fetch(`${url}?threadId=T`).then(async (res) => sseEvents(await res.text()));
    });
    own.push(...(await run).events);
    const seen = await (followed as Promise<Event[]>);

    expect(types(seen)).toEqual(types(own));
    expect(textOf(seen)).toBe('one two three four five six');
    expect(seen.at(-1)?.type).toBe('RUN_FINISHED');
  });

  it('answers 204 to a follower of an idle thread and 400 without a thread id', async () => {
    server = await listen(agUiHandler(new AgentHost({ create: () => weatherAgent([]) })));
    expect((await fetch(`${server.url}?threadId=idle`)).status).toBe(204);
    expect((await fetch(server.url)).status).toBe(400);
    const foreign = await fetch(`${server.url}?threadId=x`, {
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
  });
});
