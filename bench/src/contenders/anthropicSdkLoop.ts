import Anthropic from '@anthropic-ai/sdk';
import type { ContentBlockParam, MessageParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import { SYSTEM_PROMPT } from '../scenario/conversation.js';
import { runBenchTool, TOOL_SCHEMAS } from '../scenario/tools.js';
import { type Contender, MAX_ITERS } from './contender.js';

interface Call {
  id: string;
  name: string;
  json: string[];
}

/**
 * The hand-written baseline on `@anthropic-ai/sdk`: the same conversation as rxagent's
 * (system prompt, tools, the user's question; tool results in the next user turn), the
 * event stream accumulated by hand into arrays joined once, both tool calls run in parallel
 * (validated with zod), on the SDK as shipped (Node's `fetch`).
 */
export function anthropicSdkLoop(
  baseURL: string,
  label = 'Anthropic SDK loop',
  fetchImpl?: typeof fetch,
): Contender {
  const client = new Anthropic({
    apiKey: 'bench-key',
    baseURL,
    maxRetries: 0,
    ...(fetchImpl && { fetch: fetchImpl }),
  });
  const tools: Tool[] = TOOL_SCHEMAS.map((schema) => ({
    name: schema.function.name,
    description: schema.function.description,
    input_schema: schema.function.parameters as Tool['input_schema'],
  }));
  const system = [{ type: 'text' as const, text: SYSTEM_PROMPT }];
  return {
    label,
    async run(prompt, signal) {
      const messages: MessageParam[] = [
        { role: 'user', content: [{ type: 'text', text: prompt }] },
      ];
      for (let step = 0; step < MAX_ITERS; step++) {
        const stream = await client.messages.create(
          { model: 'bench-model', max_tokens: 1024, system, messages, tools, stream: true },
          signal ? { signal } : undefined,
        );
        const text: string[] = [];
        const calls: Call[] = [];
        const byIndex = new Map<number, Call>();
        for await (const event of stream) {
          if (event.type === 'content_block_start' && event.content_block.type === 'tool_use') {
            const call = { id: event.content_block.id, name: event.content_block.name, json: [] };
            calls.push(call);
            byIndex.set(event.index, call);
          } else if (event.type === 'content_block_delta') {
            if (event.delta.type === 'text_delta') text.push(event.delta.text);
            else if (event.delta.type === 'input_json_delta') {
              byIndex.get(event.index)?.json.push(event.delta.partial_json);
            }
          }
        }
        signal?.throwIfAborted();
        const answer = text.join('');
        if (calls.length === 0) return answer;
        const assistant: ContentBlockParam[] =
          answer === '' ? [] : [{ type: 'text', text: answer }];
        const args = calls.map((call) => call.json.join('') || '{}');
        for (const [i, call] of calls.entries()) {
          assistant.push({
            type: 'tool_use',
            id: call.id,
            name: call.name,
            input: JSON.parse(args[i]!),
          });
        }
        messages.push({ role: 'assistant', content: assistant });
        const results = await Promise.all(
          calls.map(async (call, i) => runBenchTool(call.name, args[i]!)),
        );
        messages.push({
          role: 'user',
          content: calls.map((call, i) => ({
            type: 'tool_result',
            tool_use_id: call.id,
            content: results[i]!,
          })),
        });
      }
      throw new Error('anthropicSdkLoop: no final answer after MAX_ITERS steps');
    },
  };
}
