import {
  type HookEvent,
  type JsonObject,
  Toolkit,
  tool,
  toolResults,
  userMsg,
} from '@rxagent/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { harness, run, textOf, transcript, weatherTool, wireMessages } from './harness.js';

describe.each([{ stream: true }, { stream: false }])(
  'ReActAgent over HTTP (stream: $stream)',
  ({ stream }) => {
    it('runs a tool round trip with tool_call_id pairing and never stores the system prompt', async () => {
      const calls: JsonObject[] = [];
      const { server, agent } = await harness(
        [
          { toolCalls: [{ id: 'call_w', name: 'get_weather', arguments: { city: 'Paris' } }] },
          'Sunny and 21°C in Paris.',
        ],
        { stream, toolkit: new Toolkit([weatherTool(calls)]) },
      );

      const reply = await run(agent, userMsg('Weather in Paris?'));

      expect(textOf(reply)).toBe('Sunny and 21°C in Paris.');
      expect(reply.metadata['generateReason']).toBe('stop');
      expect(calls).toEqual([{ city: 'Paris' }]);
      const second = wireMessages(server, 1);
      expect(second[0]).toEqual({ role: 'system', content: 'You are a test assistant.' });
      expect(second.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
      expect(second[2]).toMatchObject({
        tool_calls: [{ id: 'call_w', function: { name: 'get_weather' } }],
      });
      expect(second[3]).toEqual({ role: 'tool', tool_call_id: 'call_w', content: 'Sunny, 21°C' });
      expect(server.requests[0]?.body['tools']).toHaveLength(1);
      expect(agent.memory.messages().some((m) => m.role === 'system')).toBe(false);
      expect(transcript(agent.memory.messages())).toEqual([
        'user:Weather in Paris?',
        'assistant:tool_use(get_weather)',
        'tool:tool_result(get_weather)',
        'assistant:Sunny and 21°C in Paris.',
      ]);
    });

    it('runs parallel tool calls concurrently and stores results in call order', async () => {
      const started: string[] = [];
      let release: () => void = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const slow = tool({
        name: 'slow',
        description: 'Slow lookup.',
        parameters: z.object({}),
        execute: async () => {
          started.push('slow');
          await gate;
          return 'slow done';
        },
      });
      const fast = tool({
        name: 'fast',
        description: 'Fast lookup.',
        parameters: z.object({}),
        execute: () => {
          started.push('fast');
          release();
          return 'fast done';
        },
      });
      const { server, agent } = await harness(
        [
          {
            toolCalls: [
              { id: 'c1', name: 'slow', arguments: {} },
              { id: 'c2', name: 'fast', arguments: {} },
            ],
          },
          'both done',
        ],
        { stream, toolkit: new Toolkit([slow, fast]) },
      );

      await run(agent, userMsg('go'));

      // fast ran while slow was still waiting: they overlapped.
      expect(started).toEqual(['slow', 'fast']);
      const tools = wireMessages(server, 1).filter((m) => m.role === 'tool');
      expect(tools.map((m) => (m.role === 'tool' ? m.tool_call_id : ''))).toEqual(['c1', 'c2']);
      expect(tools.map((m) => m.content)).toEqual(['slow done', 'fast done']);
    });

    it('turns every tool failure into an error result the model reads, and the next request is valid', async () => {
      const failing = tool({
        name: 'explode',
        description: 'Always fails.',
        parameters: z.object({}),
        execute: () => {
          throw new Error('kaboom');
        },
      });
      const sleepy = tool({
        name: 'sleepy',
        description: 'Never answers in time.',
        parameters: z.object({}),
        timeoutMs: 30,
        execute: (_args, { signal }) =>
          new Promise<string>((_resolve, reject) =>
            signal.addEventListener('abort', () => reject(signal.reason)),
          ),
      });
      const { server, agent } = await harness(
        [
          {
            toolCalls: [
              { id: 'u1', name: 'no_such_tool', arguments: {} },
              { id: 'u2', name: 'get_weather', arguments: 'not json {' },
              { id: 'u3', name: 'get_weather', arguments: { town: 'Paris' } },
              { id: 'u4', name: 'explode', arguments: {} },
              { id: 'u5', name: 'sleepy', arguments: {} },
            ],
          },
          'I could not do it.',
        ],
        { stream, toolkit: new Toolkit([weatherTool(), failing, sleepy]) },
      );

      const reply = await run(agent, userMsg('try everything'));

      expect(textOf(reply)).toBe('I could not do it.');
      const results = agent.memory.messages().flatMap(toolResults);
      expect(results.map((r) => r.id)).toEqual(['u1', 'u2', 'u3', 'u4', 'u5']);
      expect(results.every((r) => r.isError)).toBe(true);
      const [unknown, malformed, invalid, thrown, timedOut] = results.map((r) => String(r.output));
      expect(unknown).toMatch(/no_such_tool/);
      expect(malformed).toMatch(/JSON/);
      expect(invalid).toMatch(/city/);
      expect(thrown).toMatch(/kaboom/);
      expect(timedOut).toMatch(/timed out after 30 ms/);
      // The malformed arguments are replayed as valid JSON; the raw text stays in metadata.
      const assistant = wireMessages(server, 1).find((m) => m.role === 'assistant');
      const replayed =
        assistant?.role === 'assistant' ? assistant.tool_calls?.[1]?.function.arguments : undefined;
      expect(replayed).toBe('{}');
      expect(agent.memory.messages()[1]?.metadata['invalidToolArguments']).toEqual({
        u2: 'not json {',
      });
    });

    it('fires hook events in loop order', async () => {
      const events: string[] = [];
      const { agent } = await harness(
        [
          { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] },
          { text: 'done now', chunkSize: 4 },
        ],
        { stream, toolkit: new Toolkit([weatherTool()]) },
      );
      agent.addHook({
        onEvent: (event: HookEvent) => {
          if (events[events.length - 1] !== event.type || event.type !== 'reasoningChunk')
            events.push(event.type);
        },
      });

      await run(agent, userMsg('go'));

      expect(events).toEqual([
        'preCall',
        'preReasoning',
        'reasoningChunk',
        'postReasoning',
        'preActing',
        'postActing',
        'preReasoning',
        'reasoningChunk',
        'postReasoning',
        'postCall',
      ]);
    });

    it('sums usage over every request of the call', async () => {
      const { agent } = await harness(
        [
          {
            toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }],
            usage: { inputTokens: 10, outputTokens: 3 },
          },
          { text: 'ok', usage: { inputTokens: 20, outputTokens: 5 } },
        ],
        { stream, toolkit: new Toolkit([weatherTool()]) },
      );

      const reply = await run(agent, userMsg('go'));

      expect(reply.metadata['usage']).toEqual({
        inputTokens: 30,
        outputTokens: 8,
        totalTokens: 38,
        cachedInputTokens: 0,
      });
    });
  },
);
