import {
  CallAbortedError,
  InMemorySession,
  type JsonObject,
  loadCheckpoint,
  type Msg,
  type SaveOptions,
  type Session,
  Toolkit,
  textOf,
  tool,
  toolResults,
  type VersionedSession,
} from '@rxagent/core';
import { ScriptedChatModel, type ScriptedReply } from '@rxagent/core/testing';
import { ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

/** One process's view of a shared session: it counts the checkpoint heads it saves under `run`. */
class ProcessSession implements VersionedSession {
  heads = 0;
  constructor(readonly store: InMemorySession) {}
  async save(key: string, state: JsonObject, options?: SaveOptions): Promise<void> {
    await this.store.save(key, state, options);
    if (key === 'run') this.heads++;
  }
  loadVersioned = (key: string) => this.store.loadVersioned(key);
  load = (key: string) => this.store.load(key);
  delete = (key: string) => this.store.delete(key);
  list = () => this.store.list();
}

const SCRIPT: ScriptedReply[] = [
  { toolCalls: [{ id: 'r1', name: 'refund', arguments: { order: 'A1' } }] },
  'The refund of A1 may have gone through; please check.',
];

/** A promise with its resolve, to hold a tool until the test lets it finish. */
function gate(): { readonly promise: Promise<void>; readonly open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/**
 * A durable shop whose `refund` tool ignores cancellation: it finishes (and counts) only
 * once `release` opens, whatever happened to its call meanwhile.
 */
function shop(session: Session, release: Promise<void>, refunds: string[], script = SCRIPT) {
  const started = gate();
  const refund = tool({
    name: 'refund',
    description: 'Refunds an order.',
    parameters: z.object({ order: z.string() }),
    execute: async ({ order }) => {
      started.open();
      await release;
      refunds.push(order);
      return `refunded ${order}`;
    },
  });
  const agent = new ReActAgent({
    name: 'shop',
    sysPrompt: 'You run a shop.',
    model: new ScriptedChatModel(script),
    toolkit: new Toolkit([refund]),
    durable: { session, key: 'run' },
  });
  return { agent, started: started.promise };
}

/** The recovered conversation's result for `r1`, with its kind. */
function resultOf(agent: ReActAgent): [string, unknown] {
  const msg = agent.memory
    .messages()
    .find((m: Msg) => m.role === 'tool' && toolResults(m)[0]?.id === 'r1');
  return [String(toolResults(msg!)[0]?.output), msg?.metadata['resultKind']];
}

describe('a durable call its caller leaves', () => {
  it.each([
    ['unsubscribes', 'unsubscribe'],
    ['aborts its signal', 'abort'],
  ] as const)(
    'saves nothing once its caller %s; a recover() at once finds the running tool in doubt',
    async (_how, how) => {
      const store = new InMemorySession();
      const session = new ProcessSession(store);
      const release = gate();
      const refunds: string[] = [];
      const { agent, started } = shop(session, release.promise, refunds);
      const caller = new AbortController();
      const errors: unknown[] = [];
      const call = agent
        .call('Refund order A1.', { signal: caller.signal })
        .subscribe({ error: (error) => errors.push(error) });
      await started;
      const saved = session.heads;
      const stored = await loadCheckpoint(store, 'run');
      expect(stored?.call?.progress?.['started']).toEqual(['r1']);

      if (how === 'unsubscribe') call.unsubscribe();
      else caller.abort();
      // A recover() in another process, at once, while the tool still runs.
      const other = shop(new ProcessSession(store), new Promise(() => {}), [], SCRIPT.slice(1));
      const recovering = lastValueFrom(other.agent.recover());
      release.open(); // the cancelled call's tool finishes after all
      await new Promise((resolve) => setTimeout(resolve, 20));
      const reply = await recovering;

      expect(refunds).toEqual(['A1']);
      // The cancelled call saved nothing after its caller left.
      expect(session.heads).toBe(saved);
      const recovered = await loadCheckpoint(store, 'run');
      expect(recovered?.call).toMatchObject({ status: 'finished', recoveries: 1 });
      // The refund that was running stayed started: in doubt, never "interrupted before it finished".
      expect(resultOf(other.agent)).toEqual([
        '[interrupted] the process stopped while this tool ran; its outcome is unknown',
        'in_doubt',
      ]);
      expect(textOf(reply)).toBe('The refund of A1 may have gone through; please check.');
      if (how === 'abort') expect(errors).toMatchObject([{ name: 'AbortError' }]);
      else expect(errors).toEqual([]);
    },
  );
});

describe('a call whose signal is already aborted', () => {
  it('stores and saves nothing and fails as a call aborted before its first model request does', async () => {
    const store = new InMemorySession();
    const session = new ProcessSession(store);
    const model = new ScriptedChatModel(['Never sent.', 'Never sent either.']);
    const agent = new ReActAgent({
      name: 'clerk',
      sysPrompt: 'You help.',
      model,
      durable: { session, key: 'run' },
    });
    const aborted = new AbortController();
    aborted.abort();
    const early = await agent.reply('Hello?', { signal: aborted.signal }).catch((e: unknown) => e);

    expect(early).toBeInstanceOf(CallAbortedError);
    expect(early).toMatchObject({ name: 'AbortError', code: 'ABORTED' });
    expect(agent.memory.messages()).toEqual([]);
    expect(model.requests).toHaveLength(0);
    expect(session.heads).toBe(0);
    expect(await store.list()).toEqual([]);

    // Aborted while a hook runs, before the first model request: the same error.
    const during = new AbortController();
    const late = await new ReActAgent({
      name: 'clerk',
      sysPrompt: 'You help.',
      model: new ScriptedChatModel(['Never sent.']),
      hooks: [
        {
          onEvent: (event) => {
            if (event.type === 'preReasoning') during.abort();
          },
        },
      ],
    })
      .reply('Hello?', { signal: during.signal })
      .catch((e: unknown) => e);
    expect(late).toBeInstanceOf(CallAbortedError);
    expect(late).toMatchObject({ name: 'AbortError', code: 'ABORTED' });
  });
});
