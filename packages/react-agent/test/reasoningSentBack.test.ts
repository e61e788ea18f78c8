import {
  assistantMsg,
  formatMessages,
  type Msg,
  type ThinkingBlock,
  Toolkit,
  type ToolUseBlock,
  userMsg,
} from '@rxagent/core';
import {
  type StrictOpenAIServer,
  type StrictServerDialect,
  startStrictOpenAIServer,
} from '@rxagent/core/testing';
import { OpenAIChatModel, ReActAgent } from '@rxagent/react-agent';
import { afterEach, describe, expect, it } from 'vitest';
import { run, textOf, weatherTool, wireMessages } from './harness.js';

const servers: StrictOpenAIServer[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function serve(
  dialect?: StrictServerDialect,
  script: Parameters<typeof startStrictOpenAIServer>[0] = {},
) {
  const server = await startStrictOpenAIServer({ ...script, ...(dialect && { dialect }) });
  servers.push(server);
  return server;
}

function agentOn(
  server: StrictOpenAIServer,
  options: { model?: string; stream?: boolean; name?: string } = {},
) {
  return new ReActAgent({
    name: options.name ?? 'assistant',
    sysPrompt: 'Answer with the tools.',
    model: new OpenAIChatModel({
      model: options.model ?? 'thinking-model',
      baseURL: server.baseURL,
      apiKey: 'test-key',
      stream: options.stream ?? true,
      maxRetries: 0,
    }),
    toolkit: new Toolkit([weatherTool()]),
  });
}

/** Two rounds of tools (one call, then two in parallel) and an answer; then a second turn with one more round. */
const conversation = [
  { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] },
  {
    toolCalls: [
      { name: 'get_weather', arguments: { city: 'Rome' } },
      { name: 'get_weather', arguments: { city: 'Oslo' } },
    ],
  },
  'Paris is sunny; no data for Rome or Oslo.',
  { toolCalls: [{ name: 'get_weather', arguments: { city: 'Lima' } }] },
  'No data for Lima either.',
];

const dialects: StrictServerDialect[] = ['deepseek', 'gemini', 'openrouter'];

function thinkingOf(msg: Msg): ThinkingBlock | undefined {
  return msg.content.find((block): block is ThinkingBlock => block.type === 'thinking');
}

function toolUsesOf(msg: Msg): ToolUseBlock[] {
  return msg.content.filter((block): block is ToolUseBlock => block.type === 'tool_use');
}

describe.each(dialects)('ReActAgent + OpenAIChatModel on a %s server', (dialect) => {
  it.each([true, false])(
    'runs a multi-round tool conversation over two turns (stream: %s)',
    async (stream) => {
      const server = await serve(dialect, { script: [...conversation] });
      const agent = agentOn(server, { stream });
      expect(textOf(await run(agent, userMsg('Weather in Paris, Rome, Oslo?')))).toBe(
        'Paris is sunny; no data for Rome or Oslo.',
      );
      expect(textOf(await run(agent, userMsg('And Lima?')))).toBe('No data for Lima either.');
      expect(server.rejected.map((request) => request.rejection)).toEqual([]);
      expect(server.requests).toHaveLength(5);
      const replies = agent.memory.messages().filter((msg) => msg.role === 'assistant');
      for (const reply of replies) expect(reply.metadata['model']).toBe('thinking-model');
      const [first] = replies;
      if (dialect === 'gemini') {
        expect(toolUsesOf(first!)[0]!.provider).toEqual({
          extraContent: { google: { thought_signature: expect.any(String) } },
        });
      } else {
        expect(thinkingOf(first!)?.provider).toMatchObject({
          reasoningField: dialect === 'deepseek' ? 'reasoning_content' : 'reasoning',
        });
      }
    },
  );

  it('has its earlier requests rejected when the reasoning is not sent back (as before)', async () => {
    const server = await serve(dialect, { script: conversation.slice(0, 3) });
    const agent = agentOn(server);
    await run(agent, userMsg('Weather in Paris, Rome, Oslo?'));
    // Formatting without naming the model drops reasoning, as every request did before.
    const messages = formatMessages(agent.memory.messages(), { selfName: 'assistant' });
    const response = await fetch(`${server.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'thinking-model', messages }),
    });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { message: string } };
    expect(error.message).toMatch(
      {
        deepseek: /^The reasoning_content in the thinking mode must be passed back to the API\.$/,
        gemini: /^Function call is missing a thought_signature in functionCall parts/,
        openrouter: /Expected `thinking` or `redacted_thinking`, but found `tool_use`/,
      }[dialect],
    );
  });

  it('keeps the reasoning through stateDict and loadStateDict, and goes on with it', async () => {
    const server = await serve(dialect, { script: conversation.slice(0, 3) });
    const agent = agentOn(server);
    await run(agent, userMsg('Weather in Paris, Rome, Oslo?'));
    const saved = JSON.stringify(agent.stateDict());
    const restored = agentOn(server);
    restored.loadStateDict(JSON.parse(saved));
    expect(JSON.stringify(restored.stateDict())).toBe(saved);
    server.enqueue(...conversation.slice(3));
    expect(textOf(await run(restored, userMsg('And Lima?')))).toBe('No data for Lima either.');
    expect(server.rejected).toEqual([]);
  });
});

describe('reasoning goes back only to the model that produced it', () => {
  async function deepSeekHistory(): Promise<Msg[]> {
    const server = await serve('deepseek', { script: conversation.slice(0, 3) });
    const agent = agentOn(server);
    await run(agent, userMsg('Weather in Paris, Rome, Oslo?'));
    return [...agent.memory.messages()];
  }

  function assistantsOf(server: StrictOpenAIServer) {
    return wireMessages(server, 0).filter((message) => message.role === 'assistant');
  }

  it('sends it to the same model and drops it for another model', async () => {
    const history = await deepSeekHistory();
    const plain = await serve(undefined, { script: ['Same model.', 'Other model.'] });
    const same = agentOn(plain);
    same.memory.add(history);
    await run(same, userMsg('Again?'));
    const sent = assistantsOf(plain).filter((message) => message.tool_calls);
    expect(sent).toHaveLength(2);
    for (const message of sent)
      expect(message.reasoning_content).toMatch(/I think before I answer/);

    const other = agentOn(plain, { model: 'other-model' });
    other.memory.add(history);
    await run(other, userMsg('Again?'));
    const toOther = wireMessages(plain, 1).filter((message) => message.role === 'assistant');
    expect(toOther.length).toBeGreaterThan(0);
    for (const message of toOther) {
      expect(message.reasoning_content).toBeUndefined();
      expect(message.reasoning).toBeUndefined();
      expect(message.reasoning_details).toBeUndefined();
    }
    expect(plain.rejected).toEqual([]);
  });

  it("never sends another agent's reasoning, heard through a hub", async () => {
    const history = await deepSeekHistory();
    const alicesReply = history.at(-1)!;
    const heard = {
      ...alicesReply,
      name: 'alice',
      content: [thinkingOf(history[1]!)!, ...alicesReply.content],
    };
    expect(heard.metadata['model']).toBe('thinking-model');
    const plain = await serve(undefined, { script: ['Heard.'] });
    const bob = agentOn(plain, { name: 'bob' });
    await run(bob, [heard, userMsg('What did alice say?')]);
    const messages = wireMessages(plain, 0);
    expect(messages.filter((message) => message.role === 'assistant')).toEqual([]);
    const fromAlice = messages.find(
      (message) => message.role === 'user' && message.name === 'alice',
    );
    expect(fromAlice).toEqual({ role: 'user', name: 'alice', content: textOf(alicesReply) });
  });

  it('drops it for a Msg that does not record its model', async () => {
    const plain = await serve(undefined, { script: ['Ok.'] });
    const agent = agentOn(plain);
    const seeded = assistantMsg('', { name: 'assistant' });
    const withThinking: Msg = {
      ...seeded,
      content: [
        { type: 'thinking', thinking: 'Old.', provider: { reasoningField: 'reasoning_content' } },
        { type: 'text', text: 'Earlier answer.' },
      ],
    };
    agent.memory.add([userMsg('Earlier question'), withThinking]);
    await run(agent, userMsg('Now?'));
    const assistant = wireMessages(plain, 0).find((message) => message.role === 'assistant');
    expect(assistant).toEqual({ role: 'assistant', content: 'Earlier answer.' });
  });
});
