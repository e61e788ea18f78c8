import { SYSTEM_PROMPT } from '../scenario/conversation.js';
import { runBenchTool, TOOL_SCHEMAS } from '../scenario/tools.js';
import { type Contender, MAX_ITERS } from './contender.js';
import {
  assistantMessage,
  type LoopMessage,
  WireAccumulator,
  type WireDelta,
} from './wireAccumulator.js';

/**
 * The hand-written baseline on plain `fetch`: the same request bodies, the SSE stream parsed
 * and accumulated by hand, both tool calls run in parallel (validated with zod).
 */
export function fetchLoop(baseURL: string): Contender {
  const url = `${baseURL}/chat/completions`;
  const headers = { 'content-type': 'application/json', authorization: 'Bearer bench-key' };
  return {
    label: 'fetch loop',
    async run(prompt, signal) {
      const messages: LoopMessage[] = [
        { role: 'system', content: SYSTEM_PROMPT },
        { role: 'user', content: prompt },
      ];
      for (let step = 0; step < MAX_ITERS; step++) {
        const body = JSON.stringify({
          model: 'bench-model',
          messages,
          stream: true,
          stream_options: { include_usage: true },
          tools: TOOL_SCHEMAS,
        });
        const response = await fetch(url, {
          method: 'POST',
          headers,
          body,
          signal: signal ?? null,
        });
        if (!response.ok || !response.body) {
          throw new Error(`fetchLoop: HTTP ${response.status}: ${await response.text()}`);
        }
        const acc = new WireAccumulator();
        await readEvents(response.body, (data) => {
          const chunk = JSON.parse(data) as { choices: { delta?: WireDelta }[] };
          acc.add(chunk.choices[0]?.delta);
        });
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
      throw new Error('fetchLoop: no final answer after MAX_ITERS steps');
    },
  };
}

/** Calls `onData` with the `data:` payload of every server-sent event until `[DONE]`. */
async function readEvents(
  body: ReadableStream<Uint8Array>,
  onData: (data: string) => void,
): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const bytes of body) {
    buffer += decoder.decode(bytes, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      for (const line of event.split('\n')) {
        if (!line.startsWith('data: ')) continue;
        const data = line.slice(6);
        if (data === '[DONE]') return;
        onData(data);
      }
      end = buffer.indexOf('\n\n');
    }
  }
}
