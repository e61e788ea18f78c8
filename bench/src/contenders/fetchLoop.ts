import { TOOL_SCHEMAS } from '../scenario/tools.js';
import type { Contender } from './contender.js';
import { handWrittenLoop } from './handWrittenLoop.js';
import { WireAccumulator, type WireDelta } from './wireAccumulator.js';

/**
 * The hand-written baseline on plain `fetch`: the same request bodies, the SSE stream parsed
 * and accumulated by hand, both tool calls run in parallel (validated with zod).
 */
export function fetchLoop(baseURL: string): Contender {
  const url = `${baseURL}/chat/completions`;
  const headers = { 'content-type': 'application/json', authorization: 'Bearer bench-key' };
  return {
    label: 'fetch loop',
    run: (prompt, signal) =>
      handWrittenLoop('fetchLoop', prompt, async (messages) => {
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
        return { text: acc.text(), calls: acc.toolCalls() };
      }),
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
