import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { SYSTEM_PROMPT } from '../scenario/conversation.js';
import { runBenchTool, TOOL_SCHEMAS } from '../scenario/tools.js';
import { type Contender, MAX_ITERS } from './contender.js';
import { assistantMessage, type LoopMessage, WireAccumulator } from './wireAccumulator.js';

/**
 * The hand-written baseline on the `openai` SDK: the same request bodies as rxagent, the
 * stream accumulated by hand, both tool calls run in parallel (validated with zod).
 */
export function sdkLoop(
  baseURL: string,
  label = 'openai SDK loop',
  fetchImpl?: typeof fetch,
): Contender {
  const client = new OpenAI({
    apiKey: 'bench-key',
    baseURL,
    maxRetries: 0,
    ...(fetchImpl && { fetch: fetchImpl }),
  });
  const tools = TOOL_SCHEMAS as OpenAI.Chat.Completions.ChatCompletionTool[];
  return {
    label,
    async run(prompt, signal) {
      const messages: LoopMessage[] = [
        { role: 'system', content: SYSTEM_PROMPT },
        { role: 'user', content: prompt },
      ];
      for (let step = 0; step < MAX_ITERS; step++) {
        const stream = await client.chat.completions.create(
          {
            model: 'bench-model',
            messages: messages as ChatCompletionMessageParam[],
            stream: true,
            stream_options: { include_usage: true },
            tools,
          },
          signal ? { signal } : undefined,
        );
        const acc = new WireAccumulator();
        for await (const chunk of stream) acc.add(chunk.choices[0]?.delta);
        signal?.throwIfAborted();
        const calls = acc.toolCalls();
        if (calls.length === 0) return acc.text();
        messages.push(assistantMessage(acc.text(), calls));
        const results = await Promise.all(
          calls.map(async (call) => runBenchTool(call.name, call.arguments)),
        );
        calls.forEach((call, i) => {
          messages.push({ role: 'tool', tool_call_id: call.id, content: results[i]! });
        });
      }
      throw new Error('sdkLoop: no final answer after MAX_ITERS steps');
    },
  };
}
