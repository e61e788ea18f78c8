import {
  type Msg,
  StructuredOutputError,
  type ThinkingBlock,
  Toolkit,
  type ToolUseBlock,
  tool,
  userMsg,
} from '@rxagent/core';
import { type StrictOpenAIServer, startStrictOpenAIServer } from '@rxagent/core/testing';
import { OpenAIChatModel } from '@rxagent/react-agent';
import { StructuredOutputAgent } from '@rxagent/structured-output';
import { lastValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { respond, transcript } from './harness.js';

const servers: StrictOpenAIServer[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

const Person = z.object({ name: z.string(), age: z.number().int() });

const lookup = tool({
  name: 'lookup',
  description: 'Looks a person up.',
  parameters: z.object({ name: z.string() }),
  execute: ({ name }) => `${name} is 36.`,
});

async function agentOn(
  dialect: 'deepseek' | 'openrouter' | 'gemini',
  script: NonNullable<Parameters<typeof startStrictOpenAIServer>[0]>['script'],
  maxStructuredRetries?: number,
) {
  const server = await startStrictOpenAIServer({ dialect, ...(script && { script }) });
  servers.push(server);
  const agent = new StructuredOutputAgent({
    name: 'extractor',
    sysPrompt: 'Extract what is asked.',
    model: new OpenAIChatModel({
      model: 'thinking-model',
      baseURL: server.baseURL,
      apiKey: 'test-key',
      maxRetries: 0,
    }),
    toolkit: new Toolkit([lookup]),
    ...(maxStructuredRetries !== undefined && { maxStructuredRetries }),
  });
  return { server, agent };
}

const thinkingOf = (msg: Msg) =>
  msg.content.find((block): block is ThinkingBlock => block.type === 'thinking');

describe('StructuredOutputAgent and reasoning sent back', () => {
  it.each(['deepseek', 'openrouter', 'gemini'] as const)(
    'completes a tool loop on a %s server, and compaction keeps the reasoning of what it keeps',
    async (dialect) => {
      const { server, agent } = await agentOn(dialect, [
        { toolCalls: [{ name: 'lookup', arguments: { name: 'Ada' } }] },
        respond({ response: { name: 'Ada', age: 36 } }),
        { toolCalls: [{ name: 'lookup', arguments: { name: 'Bob' } }] },
        respond({ response: { name: 'Bob', age: 36 } }),
      ]);
      const ada = await lastValueFrom(agent.call(userMsg('Ada?'), { structuredOutput: Person }));
      expect(ada.metadata['response']).toEqual({ name: 'Ada', age: 36 });
      // The next call sends the compacted history back: the server checks its reasoning.
      const bob = await lastValueFrom(agent.call(userMsg('Bob?'), { structuredOutput: Person }));
      expect(bob.metadata['response']).toEqual({ name: 'Bob', age: 36 });
      expect(server.rejected.map((request) => request.rejection)).toEqual([]);
      const messages = agent.memory.messages();
      expect(transcript(messages).slice(0, 4)).toEqual([
        'user:Ada?',
        dialect === 'gemini' ? 'assistant:tool_use(lookup)' : 'assistant:thinking|tool_use(lookup)',
        'tool:tool_result(lookup)',
        dialect === 'gemini'
          ? `assistant:${JSON.stringify({ name: 'Ada', age: 36 })}`
          : `assistant:thinking|${JSON.stringify({ name: 'Ada', age: 36 })}`,
      ]);
      const kept = messages[1]!;
      if (dialect === 'gemini') {
        const use = kept.content.find((block): block is ToolUseBlock => block.type === 'tool_use');
        expect(use?.provider).toEqual({
          extraContent: { google: { thought_signature: expect.any(String) } },
        });
      } else {
        expect(thinkingOf(kept)?.provider?.['reasoningField']).toBe(
          dialect === 'deepseek' ? 'reasoning_content' : 'reasoning',
        );
        // The reply that replaced the generate_response turn keeps its reasoning, for its model.
        expect(thinkingOf(messages[3]!)?.provider).toBeDefined();
        expect(messages[3]!.metadata['model']).toBe('thinking-model');
      }
    },
  );

  it('retries a plain-text reply cut by the output-token limit, and says so when it gives up', async () => {
    const { server, agent } = await agentOn(
      'deepseek',
      [
        { text: 'Ada is thirty-', finishReason: 'length' },
        { text: 'Ada is', finishReason: 'length' },
      ],
      1,
    );
    const error = await lastValueFrom(
      agent.call(userMsg('Ada?'), { structuredOutput: Person }),
    ).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(StructuredOutputError);
    expect((error as StructuredOutputError).details.lastProblem).toMatch(
      /^the model answered in plain text \(cut by the output-token limit\) instead of calling generate_response/,
    );
    expect(server.requests).toHaveLength(2);
  });
});
