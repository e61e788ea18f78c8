import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { TOOL_SCHEMAS } from '../scenario/tools.js';
import type { Contender } from './contender.js';
import { handWrittenLoop } from './handWrittenLoop.js';
import { WireAccumulator } from './wireAccumulator.js';

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
    run: (prompt, signal) =>
      handWrittenLoop('sdkLoop', prompt, async (messages) => {
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
        return { text: acc.text(), calls: acc.toolCalls() };
      }),
  };
}
