import {
  type ChatMessage,
  type ChatRequest,
  type CompressionStrategy,
  Toolkit,
  textOf,
  userMsg,
} from '@rxagent/core';
import { ScriptedChatModel, type ScriptedTurn } from '@rxagent/core/testing';
import { JudgeGuard, type ReActAgentOptions } from '@rxagent/react-agent';
import { describe, expect, it } from 'vitest';
import { harness, run } from './harness.js';
import { isSummaryRequest, pageTool } from './researchChat.js';

const QUESTION = 'Compare the eight archive pages on rainfall and name the wettest year.';

/** A model that fetches `pages` pages (one per step) and then answers; summaries on request. */
function longLoop(pages: number): Array<(request: ChatRequest) => ScriptedTurn> {
  let steps = 0;
  const turn = (request: ChatRequest): ScriptedTurn => {
    if (isSummaryRequest(request)) return { text: 'Pages were fetched; rainfall noted.' };
    steps++;
    if (steps <= pages) {
      return { toolCalls: [{ name: 'fetch_page', arguments: { topic: `page ${steps}` } }] };
    }
    return { text: 'The wettest year was 1998.' };
  };
  return Array.from({ length: pages * 3 }, () => turn);
}

function holdsQuestion(messages: readonly ChatMessage[]): boolean {
  return messages.some((m) => m.role === 'user' && m.content === QUESTION);
}

async function longCall(
  strategy: CompressionStrategy,
  options: Partial<ReActAgentOptions> = {},
  history = false,
) {
  const { server, agent } = await harness(longLoop(8), {
    toolkit: new Toolkit([pageTool()]),
    context: { maxTokens: 1_500, keepRecent: 2, strategy },
    ...options,
  });
  if (history) {
    agent.memory.add([userMsg('Earlier question.'), userMsg('Another earlier question.')]);
  }
  const compressions: number[] = [];
  agent.addHook({
    onEvent: (event) => {
      if (event.type === 'postCompress') compressions.push(event.removed);
    },
  });
  const reply = await run(agent, userMsg(QUESTION));
  const requests = server.requests
    .map((r) => r.body['messages'] as unknown as ChatMessage[])
    .filter((messages) => !isSummaryRequest({ messages }));
  return { server, agent, reply, requests, compressions };
}

describe('ReActAgent context: the running call keeps its task', () => {
  for (const strategy of ['drop', 'summarize'] as const) {
    it(`sends the call's question in every request of a long tool loop ('${strategy}')`, async () => {
      const { agent, reply, requests, compressions } = await longCall(strategy, {}, true);
      expect(textOf(reply)).toBe('The wettest year was 1998.');
      expect(compressions.length).toBeGreaterThan(1);
      expect(requests).toHaveLength(9);
      for (const messages of requests) expect(holdsQuestion(messages)).toBe(true);
      // The earlier turns went first, then the oldest steps after the question, into one
      // message in place of the oldest it replaced.
      const memory = agent.memory.messages();
      expect(memory.map((m) => textOf(m))).not.toContain('Earlier question.');
      expect(memory[0]!.metadata['compressed']).toBeDefined();
      expect(textOf(memory[1]!)).toBe(QUESTION);
      // Steps after the question follow whole: a call, its result, ..., the answer.
      expect(memory.slice(2).map((m) => m.role)).toEqual([
        ...Array.from({ length: (memory.length - 3) / 2 }, () => ['assistant', 'tool']).flat(),
        'assistant',
      ]);
      expect(memory.length).toBeLessThan(12);
    });
  }

  it('lets the finish guard judge the answer against the question after compressions', async () => {
    const judge = new ScriptedChatModel(['PASS']);
    const { reply, compressions } = await longCall('drop', {
      finishGuard: new JudgeGuard({ model: judge }),
    });
    expect(compressions.length).toBeGreaterThan(1);
    expect(reply.metadata['finishGuard']).toMatchObject({ pass: true, verdict: 'pass' });
    expect(judge.requests).toHaveLength(1);
    expect(judge.requests[0]!.messages[1]?.content).toContain(`User request:\n${QUESTION}`);
  });

  it('puts the summary right after the question when it replaces only steps after it', async () => {
    const { agent, compressions } = await longCall('summarize');
    expect(compressions.length).toBeGreaterThan(1);
    const memory = agent.memory.messages();
    expect(textOf(memory[0]!)).toBe(QUESTION);
    expect(textOf(memory[1]!)).toContain('Pages were fetched; rainfall noted.');
    expect(memory[1]!.metadata['compressed']).toBeDefined();
    expect(memory[2]!.role).toBe('assistant');
    expect(memory.at(-1)!.role).toBe('assistant');
  });

  it('keeps the latest question of a resumed call that got no input', async () => {
    const { server, agent } = await harness(longLoop(8), {
      toolkit: new Toolkit([pageTool()]),
      context: { maxTokens: 1_500, keepRecent: 2, strategy: 'drop' },
    });
    let stops = 1;
    agent.addHook({
      onEvent: (event) => {
        if (event.type === 'postReasoning' && stops > 0) {
          stops--;
          event.stopAgent();
        }
      },
    });
    const stopped = await run(agent, userMsg(QUESTION));
    expect(stopped.metadata['generateReason']).toBe('tool_calls_stopped');
    const reply = await run(agent);
    expect(textOf(reply)).toBe('The wettest year was 1998.');
    const requests = server.requests.map((r) => r.body['messages'] as unknown as ChatMessage[]);
    expect(requests).toHaveLength(9);
    for (const messages of requests) expect(holdsQuestion(messages)).toBe(true);
    expect(agent.memory.messages().some((m) => m.metadata['compressed'])).toBe(true);
  });
});
