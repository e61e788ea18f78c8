import { EchoAgent, ScriptedChatModel } from '@rxagent/core/testing';
import {
  createNodeFetch,
  JudgeGuard,
  OpenAIChatModel,
  openAITokenCounter,
  ReActAgent,
} from '@rxagent/react-agent';
import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';

const model = new ScriptedChatModel(['Hello.']);
const base = { name: 'assistant', sysPrompt: 'You help.', model };

/** [options object, how to pass a misspelt key, the message expected]. */
const cases: Array<[string, () => unknown, RegExp]> = [
  [
    'ReActAgent tools',
    () => new ReActAgent({ ...base, tools: [] } as never),
    /^ReActAgent: unknown option "tools" \(did you mean "toolkit"\?\)/,
  ],
  [
    'ReActAgent instructions',
    () => new ReActAgent({ name: 'a', model, instructions: 'Be brief.' } as never),
    /^ReActAgent: unknown option "instructions" \(did you mean "sysPrompt"\?\)/,
  ],
  [
    'ReActAgent maxIterations',
    () => new ReActAgent({ ...base, maxIterations: 3 } as never),
    /^ReActAgent: unknown option "maxIterations" \(did you mean "maxIters"\?\)/,
  ],
  [
    'ReActAgent AgentBase key',
    () => new ReActAgent({ ...base, hook: [] } as never),
    /did you mean "hooks"/,
  ],
  [
    'ReActAgent context',
    () => new ReActAgent({ ...base, context: { maxTokens: 100, keep_recent: 2 } } as never),
    /ReActAgent "assistant": context: unknown option "keep_recent" \(did you mean "keepRecent"\?\)/,
  ],
  [
    'ReActAgent handoffs',
    () =>
      new ReActAgent({
        ...base,
        handoffs: [{ agent: new EchoAgent({ name: 'b' }), descripton: 'x' }],
      } as never),
    /handoffs\[0\]: unknown option "descripton" \(did you mean "description"\?\)/,
  ],
  [
    'ReActAgent modelOptions',
    () => new ReActAgent({ ...base, modelOptions: { top_p: 0.5 } } as never),
    /modelOptions: unknown option "top_p" \(did you mean "topP"\?\)/,
  ],
  [
    'OpenAIChatModel',
    () => new OpenAIChatModel({ model: 'm', baseUrl: 'http://127.0.0.1:1/v1' } as never),
    /^OpenAIChatModel: unknown option "baseUrl" \(did you mean "baseURL"\?\)/,
  ],
  [
    'OpenAIChatModel api_key',
    () => new OpenAIChatModel({ model: 'm', api_key: 'k' } as never),
    /did you mean "apiKey"/,
  ],
  [
    'JudgeGuard',
    () => new JudgeGuard({ model, retries: 2 } as never),
    /^JudgeGuard: unknown option "retries" \(did you mean "maxRetries"\?\)/,
  ],
  [
    'createNodeFetch',
    () => createNodeFetch({ keepAlive: 1 } as never),
    /did you mean "keepAliveMs"/,
  ],
  [
    'createNodeFetch tls',
    () => createNodeFetch({ tls: { rejectUnauthorised: false } } as never),
    /createNodeFetch: tls: unknown option "rejectUnauthorised" \(did you mean "rejectUnauthorized"\?\)/,
  ],
  [
    'openAITokenCounter',
    () => openAITokenCounter({ encodng: 'o200k_base' } as never),
    /did you mean "encoding"/,
  ],
];

describe('options objects of react-agent reject unknown keys', () => {
  it.each(cases)('%s', async (_, make, message) => {
    let error: unknown;
    try {
      await make();
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(message);
  });

  it('rejects an unknown call() option through the call, naming the right one', async () => {
    const agent = new ReActAgent(base);
    await expect(firstValueFrom(agent.call('Hi', { maxIterations: 1 } as never))).rejects.toThrow(
      /assistant\.call\(\): unknown option "maxIterations" \(did you mean "maxIters"\?\)/,
    );
    expect(agent.memory.messages()).toEqual([]);
    expect(model.requests).toEqual([]);
  });

  it('accepts every documented option', () => {
    expect(
      () =>
        new ReActAgent({
          ...base,
          maxIters: 3,
          maxToolFailures: 2,
          parallelToolCalls: true,
          toolConcurrency: 2,
          dedupeToolCalls: true,
          modelOptions: {},
          finishGuard: new JudgeGuard({ model, maxRetries: 1, minChars: 0 }),
          handoffs: [{ agent: new EchoAgent({ name: 'b' }), description: 'x' }],
          context: { maxTokens: 1_000, keepRecent: 2, strategy: 'drop' },
          maxInputChars: 100,
          description: 'd',
          hooks: [],
        }),
    ).not.toThrow();
    expect(
      () => new OpenAIChatModel({ model: 'm', baseURL: 'http://127.0.0.1:1/v1', maxRetries: 0 }),
    ).not.toThrow();
  });
});
