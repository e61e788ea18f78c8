import {
  type ChatChunk,
  type ChatModel,
  ContextWindowError,
  InvalidArgumentError,
  type Msg,
  Toolkit,
  userMsg,
} from '@rxagent/core';
import { pendingToolCalls, ReActAgent } from '@rxagent/react-agent';
import { Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { harness, run } from './harness.js';
import { compressedIndexes, pageTool, script } from './researchChat.js';

describe('ReActAgent context: errors, cancellation and options', () => {
  it('fails with ContextWindowError before sending anything, memory unchanged', async () => {
    const { server, agent } = await harness(['Hello.'], {
      context: { maxTokens: 300 },
    });
    await run(agent, userMsg('Hi'));
    const before = agent.memory.messages().map((m) => m.id);
    const error = await run(agent, userMsg('y'.repeat(4_000))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContextWindowError);
    expect(error).toMatchObject({ code: 'CONTEXT_WINDOW_EXCEEDED', maxTokens: 300 });
    expect((error as ContextWindowError).tokens).toBeGreaterThan(300);
    expect(server.requests).toHaveLength(1);
    expect(agent.memory.messages().map((m) => m.id)).toEqual(before);
  });

  it('keeps the results of a resumed tool call when the next request cannot fit', async () => {
    const { server, agent } = await harness(
      [{ toolCalls: [{ id: 'c1', name: 'fetch_page', arguments: { topic: 'a' } }] }],
      { toolkit: new Toolkit([pageTool()]), context: { maxTokens: 300 } },
    );
    agent.addHook({
      onEvent: (event) => {
        if (event.type === 'postReasoning') event.stopAgent();
      },
    });
    await run(agent, userMsg('Read a page'));
    const error = await run(agent).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContextWindowError);
    expect(server.requests).toHaveLength(1);
    const stored = agent.memory.messages();
    expect(stored.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(JSON.stringify(stored[2]!.content)).toContain('Page about a');
  });

  it('fails with ContextWindowError when the system prompt alone is too large', async () => {
    const { server, agent } = await harness([], {
      sysPrompt: 'z'.repeat(4_000),
      context: { maxTokens: 500 },
    });
    const error = await run(agent, userMsg('Hi')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContextWindowError);
    expect(server.requests).toHaveLength(0);
    expect(agent.memory.messages()).toEqual([]);
  });

  it('cancels the summary request on unsubscribe or interrupt, leaving memory uncompressed and valid', async () => {
    for (const end of ['unsubscribe', 'interrupt'] as const) {
      let tornDown = false;
      let started!: () => void;
      const summaryStarted = new Promise<void>((resolve) => {
        started = resolve;
      });
      const summaryModel: ChatModel = {
        modelName: 'slow-summary',
        // Never answers; like a real model it errors when its request's signal aborts.
        stream: (request) =>
          new Observable<ChatChunk>((subscriber) => {
            started();
            const abort = () => subscriber.error(request.signal?.reason);
            request.signal?.addEventListener('abort', abort);
            return () => {
              tornDown = true;
              request.signal?.removeEventListener('abort', abort);
            };
          }),
      };
      const { agent } = await harness(script(), {
        toolkit: new Toolkit([pageTool()]),
        context: { maxTokens: 1_500, keepRecent: 2, summaryModel },
      });
      let blocked = false;
      for (let turn = 0; turn < 8 && !blocked; turn++) {
        let finish!: (reply: Msg | undefined) => void;
        const finished = new Promise<Msg | undefined>((resolve) => {
          finish = resolve;
        });
        const subscription = agent.call(userMsg(`Topic ${turn}`)).subscribe({
          next: (reply) => finish(reply),
          error: () => finish(undefined),
        });
        blocked = await Promise.race([summaryStarted.then(() => true), finished.then(() => false)]);
        if (!blocked) continue;
        if (end === 'unsubscribe') subscription.unsubscribe();
        else {
          agent.interrupt();
          expect((await finished)?.metadata['generateReason']).toBe('interrupted');
        }
      }
      expect(blocked).toBe(true);
      expect(tornDown).toBe(true);
      const messages = agent.memory.messages();
      expect(compressedIndexes(messages)).toEqual([]);
      expect(pendingToolCalls(messages).calls).toEqual([]);
    }
  });

  it('rejects bad context options with an InvalidArgumentError naming the field', () => {
    const model = {
      modelName: 'm',
      stream: () => {
        throw new Error('unused');
      },
    } as never;
    const make = (context: unknown) => () =>
      new ReActAgent({ name: 'a', sysPrompt: '', model, context: context as never });
    expect(make({ maxTokens: 0 })).toThrow(/context\.maxTokens must be a positive whole number/);
    expect(make({ maxTokens: 1.5 })).toThrow(InvalidArgumentError);
    expect(make({ maxTokens: 100, keepRecent: -1 })).toThrow(/context\.keepRecent/);
    expect(make({ maxTokens: 100, strategy: 'forget' })).toThrow(
      /context\.strategy must be 'summarize' or 'drop'/,
    );
    expect(make({ maxTokens: 100, summaryModel: {} })).toThrow(
      /context\.summaryModel must be a ChatModel/,
    );
    expect(make({ maxTokens: 100, countTokens: 5 })).toThrow(
      /context\.countTokens must be a function/,
    );
    expect(make(null)).toThrow(/context must be an object/);
  });

  it('counts requests with the countTokens it is given, and none without context', async () => {
    let counted = 0;
    const countTokens = () => {
      counted++;
      return 10;
    };
    const { agent } = await harness(['One.', 'Two.'], { context: { maxTokens: 100, countTokens } });
    await run(agent, userMsg('Hi'));
    expect(counted).toBe(1);
    const plain = await harness(['One.']);
    await run(plain.agent, userMsg('Hi'));
    expect(counted).toBe(1);
  });
});
