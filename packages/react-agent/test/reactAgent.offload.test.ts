import {
  type ChatRequest,
  InvalidArgumentError,
  type JsonObject,
  type MemoryItem,
  type MemoryStore,
  type Namespace,
  Toolkit,
  tool,
  toolResults,
  userMsg,
} from '@rxagent/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { harness, run, wireMessages } from './harness.js';

/** A deterministic log of `lines` numbered lines. */
function makeLog(lines: number): string {
  return Array.from(
    { length: lines },
    (_, i) => `${String(i).padStart(5, '0')} INFO worker tick ${i * 7}`,
  ).join('\n');
}

const LOG = makeLog(400); // ~12,000 characters
const PAGE = 1000;

function logToolkit(text = LOG): Toolkit {
  return new Toolkit([
    tool({
      name: 'fetch_logs',
      description: 'The service logs.',
      parameters: z.object({}),
      execute: () => text,
    }),
  ]);
}

/** The handle named in the last offload notice of a request. */
function handleIn(request: ChatRequest): string {
  const texts = request.messages.map((m) => (typeof m.content === 'string' ? m.content : ''));
  const found = texts.join('\n').match(/"handle":"(result-[0-9a-f]+)"/gu);
  if (!found) throw new Error('no offload notice in the request');
  return JSON.parse(`{${found.at(-1)!}}`).handle as string;
}

/** A script that reads the whole offloaded log page by page, then answers with its length. */
function pagingScript(pages: number): Parameters<typeof harness>[0] {
  const script: Parameters<typeof harness>[0] = [
    { toolCalls: [{ name: 'fetch_logs', arguments: {} }] },
  ];
  for (let page = 1; page < pages; page++) {
    script.push((request) => ({
      toolCalls: [
        { name: 'read_result', arguments: { handle: handleIn(request), offset: page * PAGE } },
      ],
    }));
  }
  script.push('done');
  return script;
}

describe('ReActAgent offload', () => {
  it('shows the first overChars characters and a notice; read_result pages return exactly the stored text', async () => {
    const pages = Math.ceil(LOG.length / PAGE);
    const { server, agent } = await harness(pagingScript(pages), {
      toolkit: logToolkit(),
      offload: { overChars: PAGE },
      maxIters: pages + 2,
    });
    await run(agent, userMsg('Read the logs'));
    const stored = agent.memory.messages().flatMap((m) => toolResults(m).map((r) => ({ r, m })));
    const first = stored[0]!;
    const shown = String(first.r.output);
    expect(shown.startsWith(LOG.slice(0, PAGE))).toBe(true);
    expect(shown.slice(PAGE)).toMatch(
      new RegExp(`output offloaded: ${LOG.length} characters in all, the first ${PAGE} shown`, 'u'),
    );
    const handle = (first.m.metadata['offloaded'] as JsonObject)['handle'];
    expect(first.m.metadata['offloaded']).toEqual({ handle, chars: LOG.length });
    expect(first.m.metadata['truncated']).toBeUndefined();
    // What the model saw is the same head and notice.
    const wire = wireMessages(server, 1).find((m) => m.role === 'tool')!;
    expect(wire.content).toBe(shown);
    // Paging: the head plus every read_result page is the log, byte for byte.
    const read = stored.slice(1).map(({ r }) => String(r.output));
    expect(read.every((page) => page.length <= PAGE)).toBe(true);
    expect(LOG.slice(0, PAGE) + read.join('')).toBe(LOG);
    expect(stored.slice(1).every(({ m }) => m.metadata['offloaded'] === undefined)).toBe(true);
  });

  it('returns exactly text.slice(offset, offset + length), and refuses a length over overChars', async () => {
    const { agent } = await harness(
      [
        { toolCalls: [{ name: 'fetch_logs', arguments: {} }] },
        (request) => ({
          toolCalls: [
            {
              name: 'read_result',
              arguments: { handle: handleIn(request), offset: 1234, length: 77 },
            },
            {
              name: 'read_result',
              arguments: { handle: handleIn(request), offset: LOG.length - 5 },
            },
            { name: 'read_result', arguments: { handle: handleIn(request), length: PAGE + 1 } },
            { name: 'read_result', arguments: { handle: 'result-nothere' } },
          ],
        }),
        'ok',
      ],
      { toolkit: logToolkit(), offload: { overChars: PAGE } },
    );
    await run(agent, userMsg('go'));
    const results = agent.memory
      .messages()
      .flatMap((m) => toolResults(m))
      .slice(1);
    expect(results[0]!.output).toBe(LOG.slice(1234, 1234 + 77));
    expect(results[1]!.output).toBe(LOG.slice(LOG.length - 5));
    expect(results[2]!.isError).toBe(true);
    expect(String(results[3]!.output)).toMatch(
      /no offloaded result has the handle "result-nothere"/u,
    );
  });

  it('keeps a short result as it is, and never offloads read_result itself', async () => {
    const { agent } = await harness(
      [
        { toolCalls: [{ name: 'fetch_logs', arguments: {} }] },
        (request) => ({
          toolCalls: [{ name: 'read_result', arguments: { handle: handleIn(request) } }],
        }),
        'ok',
      ],
      { toolkit: logToolkit(), offload: { overChars: 900 } },
    );
    await run(agent, userMsg('go'));
    const results = agent.memory.messages().flatMap((m) => toolResults(m));
    expect(results[1]!.output).toBe(LOG.slice(0, 900));
    const short = await harness([{ toolCalls: [{ name: 'fetch_logs', arguments: {} }] }, 'ok'], {
      toolkit: logToolkit('short'),
      offload: { overChars: 900 },
    });
    await run(short.agent, userMsg('go'));
    expect(short.agent.memory.messages().flatMap((m) => toolResults(m))[0]!.output).toBe('short');
  });

  it('survives save and load: a new agent reads the offloaded result of the saved one', async () => {
    const first = await harness([{ toolCalls: [{ name: 'fetch_logs', arguments: {} }] }, 'saved'], {
      toolkit: logToolkit(),
      offload: { overChars: PAGE },
    });
    await run(first.agent, userMsg('go'));
    const saved = JSON.parse(JSON.stringify(first.agent.stateDict())) as JsonObject;
    const second = await harness(
      [
        (request) => ({
          toolCalls: [
            { name: 'read_result', arguments: { handle: handleIn(request), offset: 5000 } },
          ],
        }),
        'ok',
      ],
      { toolkit: logToolkit(), offload: { overChars: PAGE } },
    );
    second.agent.loadStateDict(saved);
    await run(second.agent, userMsg('read on'));
    const results = second.agent.memory.messages().flatMap((m) => toolResults(m));
    expect(results.at(-1)!.output).toBe(LOG.slice(5000, 5000 + PAGE));
  });

  it('with a MemoryStore, writes the text there and drops it from the state once written', async () => {
    const store = new MapStore();
    const { agent } = await harness(
      [
        { toolCalls: [{ name: 'fetch_logs', arguments: {} }] },
        (request) => ({
          toolCalls: [
            { name: 'read_result', arguments: { handle: handleIn(request), offset: 3000 } },
          ],
        }),
        'ok',
      ],
      { toolkit: logToolkit(), offload: { overChars: PAGE, store } },
    );
    await run(agent, userMsg('go'));
    const results = agent.memory.messages().flatMap((m) => toolResults(m));
    expect(results.at(-1)!.output).toBe(LOG.slice(3000, 4000));
    const [key] = [...store.items.keys()];
    expect(key).toMatch(/^rxagent\/offload\/assistant\/result-/u);
    expect(store.items.get(key!)!.value).toEqual({ text: LOG });
    const state = agent.stateDict()['offload'] as JsonObject;
    expect(state['texts']).toEqual({});
    expect((state['stored'] as string[]).length).toBe(1);
  });

  it('rejects a bad offload option with an error naming it', async () => {
    await expect(harness([], { offload: { overChars: 0 } })).rejects.toThrow(InvalidArgumentError);
    await expect(harness([], { offload: { overChars: 10, pages: 2 } as never })).rejects.toThrow(
      /unknown option\(s\) pages/u,
    );
  });
});

/** A MemoryStore over a Map (get and put are what offloading uses). */
class MapStore implements MemoryStore {
  readonly items = new Map<string, MemoryItem>();
  async put(namespace: Namespace, key: string, value: JsonObject): Promise<{ version: number }> {
    const id = [...namespace, key].join('/');
    const version = (this.items.get(id)?.version ?? 0) + 1;
    this.items.set(id, { key, value, version, updatedAt: new Date(0).toISOString(), namespace });
    return { version };
  }
  async get(namespace: Namespace, key: string): Promise<MemoryItem | undefined> {
    return this.items.get([...namespace, key].join('/'));
  }
  async search(): Promise<never[]> {
    return [];
  }
  async delete(namespace: Namespace, key: string): Promise<void> {
    this.items.delete([...namespace, key].join('/'));
  }
  async list(): Promise<MemoryItem[]> {
    return [...this.items.values()];
  }
}
