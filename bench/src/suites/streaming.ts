import { userMsg } from '@rxagent/core';
import { ScriptedChatModel } from '@rxagent/core/testing';
import { ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom } from 'rxjs';
import type { BenchConfig } from '../lib/config.js';
import { interleave, type Series } from '../lib/interleave.js';
import { atMost, row, type SuiteResult } from '../lib/result.js';
import { pairRatios, summarize } from '../lib/stats.js';

const CHUNK = 100;

type Listener = 'hook' | 'stream';

/**
 * Milliseconds for one call whose reply is `chunks` chunks of 100 characters, with either a
 * `reasoningChunk` hook that reads every event or a `stream()` subscriber that receives every
 * snapshot. The agent and model are built before the clock starts.
 */
async function timeReply(chunks: number, listener: Listener): Promise<number> {
  const text = 'x'.repeat(CHUNK * chunks);
  const model = new ScriptedChatModel([{ text, chunkSize: CHUNK }], { strict: false });
  const agent = new ReActAgent({ name: 'streamer', sysPrompt: '', model });
  let seen = 0;
  let replyText = '';
  if (listener === 'hook') {
    agent.addHook({
      onEvent: (event) => {
        if (event.type === 'reasoningChunk') seen += event.delta.text?.length ?? 0;
      },
    });
  }
  const t0 = performance.now();
  if (listener === 'hook') {
    const reply = await lastValueFrom(agent.call(userMsg('stream')));
    replyText = reply.content[0]?.type === 'text' ? reply.content[0].text : '';
  } else {
    await new Promise<void>((resolve, reject) =>
      agent.stream(userMsg('stream')).subscribe({
        next: (event) => {
          if (event.type === 'reasoningChunk') seen += event.delta.text?.length ?? 0;
          if (event.type === 'reply' && event.msg.content[0]?.type === 'text')
            replyText = event.msg.content[0].text;
        },
        error: reject,
        complete: resolve,
      }),
    );
  }
  const elapsed = performance.now() - t0;
  if (replyText.length !== text.length || seen !== text.length) {
    throw new Error(
      `streaming ${listener}: got ${replyText.length} characters, saw ${seen} in chunks`,
    );
  }
  return elapsed;
}

/**
 * Milliseconds for one call whose reply is one tool call with `fragments` argument fragments
 * of 16 characters, with a `reasoningChunk` hook reading the accumulated `tool_use` block
 * (whose input appears once the arguments' JSON object closes), then a one-word final reply.
 */
async function timeToolCall(fragments: number): Promise<number> {
  const note = 'y'.repeat(16 * fragments - 12);
  const model = new ScriptedChatModel(
    [{ toolCalls: [{ id: 'c', name: 'nowhere', arguments: { note } }] }, 'Done.'],
    { strict: false },
  );
  const agent = new ReActAgent({ name: 'streamer', sysPrompt: '', model });
  let complete = 0;
  agent.addHook({
    onEvent: (event) => {
      if (event.type !== 'reasoningChunk') return;
      const block = event.accumulated.content.at(-1);
      if (block?.type === 'tool_use' && block.input['note'] !== undefined) complete++;
    },
  });
  const t0 = performance.now();
  await lastValueFrom(agent.call(userMsg('call')));
  const elapsed = performance.now() - t0;
  if (complete !== 1) throw new Error(`streaming tool call: input complete ${complete} times`);
  return elapsed;
}

/**
 * Suite 5: accumulating a 1 MB reply in 10,000 chunks vs 2 MB in 20,000, with a
 * reasoningChunk hook and with stream() subscribed. Linear accumulation doubles the time
 * (ratio ≈ 2); re-copying the text per chunk would quadruple it. The same for a tool call
 * whose arguments arrive in 10,000 vs 20,000 fragments (the unit test counts this work;
 * the time is measured here).
 */
export async function streaming(config: BenchConfig): Promise<SuiteResult> {
  const series: Series[] = (['hook', 'stream'] as const).flatMap((listener) =>
    ([10_000, 20_000] as const).map((chunks) => ({
      label: `${listener} ${chunks}`,
      sample: async () => ({ value: await timeReply(chunks, listener) }),
    })),
  );
  for (const fragments of [10_000, 20_000] as const) {
    series.push({
      label: `tool ${fragments}`,
      sample: async () => ({ value: await timeToolCall(fragments) }),
    });
  }
  const samples = await interleave(series, config.streamingRounds, 1);
  const get = (label: string) => samples.get(label);
  const hookRatio = pairRatios(get('hook 20000'), get('hook 10000'));
  const streamRatio = pairRatios(get('stream 20000'), get('stream 10000'));
  const toolRatio = pairRatios(get('tool 20000'), get('tool 10000'));
  const perChunk = (label: string, chunks: number) => get(label).map((ms) => (ms * 1000) / chunks);
  return {
    id: 'streaming',
    title: `Streaming: 1 MB in 10,000 chunks vs 2 MB in 20,000 (and a tool call's arguments), ${config.streamingRounds} rounds`,
    rows: [
      row('reasoningChunk hook: 1 MB / 10k chunks', 'ms', get('hook 10000')),
      row('reasoningChunk hook: 2 MB / 20k chunks', 'ms', get('hook 20000')),
      row('reasoningChunk hook: per chunk (1 MB)', 'µs', perChunk('hook 10000', 10_000)),
      row('reasoningChunk hook: 2 MB / 1 MB', '×', hookRatio),
      row('stream() subscribed: 1 MB / 10k chunks', 'ms', get('stream 10000')),
      row('stream() subscribed: 2 MB / 20k chunks', 'ms', get('stream 20000')),
      row('stream() subscribed: per chunk (1 MB)', 'µs', perChunk('stream 10000', 10_000)),
      row('stream() subscribed: 2 MB / 1 MB', '×', streamRatio),
      row('tool call: 160 KB arguments / 10k fragments', 'ms', get('tool 10000')),
      row('tool call: 320 KB arguments / 20k fragments', 'ms', get('tool 20000')),
      row('tool call: 20k / 10k fragments', '×', toolRatio),
    ],
    budgets: [
      atMost(
        'Streaming linear with a hook: 2 MB / 1 MB ≤ 2.3',
        summarize(hookRatio).median,
        2.3,
        '×',
      ),
      atMost(
        'Streaming linear with stream(): 2 MB / 1 MB ≤ 2.3',
        summarize(streamRatio).median,
        2.3,
        '×',
      ),
    ],
    details: { samples: samples.toJSON() },
  };
}
