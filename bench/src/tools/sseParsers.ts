/**
 * Event-stream parsers side by side (not part of `pnpm bench`): the four replies of one
 * scenario conversation, recorded from the bench server and cut where the server flushed
 * (one event per chunk), parsed again and again by
 * - rxagent's `EventStreamDecoder` (byte level, on the Buffers Node's sockets deliver);
 * - `eventsource-parser` 3 (`createParser`, fed text from a streaming `TextDecoder`);
 * - the openai SDK's `Stream` over a `Response` (its own line and event decoders, a web
 *   stream and async iterators: what `OpenAIChatModel` ran before);
 * each followed by the same `JSON.parse` of every event's data (`--no-json`: the parsers
 * alone; the SDK parses JSON itself). CPU µs per reply, median over interleaved rounds.
 * Usage: `node --import tsx --import ./src/build/register.mjs src/tools/sseParsers.ts [rounds] [replies] [--no-json]`
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createParser } from 'eventsource-parser';
import { Stream } from 'openai/streaming';
import { BUILD_DIR } from '../build/buildPackages.js';
import { interleave } from '../lib/interleave.js';
import { recordReplies } from '../lib/replayFetch.js';
import { pairRatios, summarize } from '../lib/stats.js';
import { ServerProcess } from '../server/serverProcess.js';

type Decoder = new (
  onEvent: (data: string) => void,
) => { push(chunk: Uint8Array): void; end(): void };

const args = process.argv.slice(2);
const json = !args.includes('--no-json');
const [roundsArg = '15', repliesArg = '2000'] = args.filter((arg) => !arg.startsWith('--'));
const server = await ServerProcess.start();
const recorded = await recordReplies(server.baseURL).finally(() => server.close());
const replies = [...recorded.values()].map((events) => events.map((e) => Buffer.from(e)));
const { EventStreamDecoder } = (await import(
  pathToFileURL(join(BUILD_DIR, 'node_modules/@rxagent/react-agent/openai/eventStreamDecoder.js'))
    .href
)) as { EventStreamDecoder: Decoder };

let parsed = 0;
const onData = (data: string) => {
  if (!json) parsed += data.length;
  else if (data !== '[DONE]') parsed += (JSON.parse(data) as object) ? 1 : 0;
};

/** Each parser reads one reply (its chunks in order), then the next. */
const parsers: Record<string, (reply: readonly Buffer[]) => void | Promise<void>> = {
  'rxagent EventStreamDecoder': (reply) => {
    const decoder = new EventStreamDecoder(onData);
    for (const chunk of reply) decoder.push(chunk);
    decoder.end();
  },
  'eventsource-parser 3': (reply) => {
    const text = new TextDecoder();
    const parser = createParser({ onEvent: (event) => onData(event.data) });
    for (const chunk of reply) parser.feed(text.decode(chunk, { stream: true }));
  },
  "openai SDK's Stream": async (reply) => {
    let next = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const chunk = reply[next++];
        if (chunk) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const response = new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    for await (const chunk of Stream.fromSSEResponse(response, new AbortController())) {
      parsed += chunk ? 1 : 0;
    }
  },
};

const count = Number(repliesArg);
const samples = await interleave(
  Object.entries(parsers).map(([label, parse]) => ({
    label,
    sample: async () => {
      const cpu0 = process.cpuUsage();
      for (let i = 0; i < count; i++) await parse(replies[i % replies.length]!);
      const cpu = process.cpuUsage(cpu0);
      return { cpu: (cpu.user + cpu.system) / count };
    },
  })),
  Number(roundsArg),
  3,
);
const ours = samples.get('rxagent EventStreamDecoder', 'cpu');
const events = replies.reduce((sum, reply) => sum + reply.length, 0) / replies.length;
console.log(`${replies.length} replies, ${events.toFixed(1)} events per reply on average`);
for (const label of Object.keys(parsers)) {
  const { median, min, max } = summarize(samples.get(label, 'cpu'));
  const ratio = summarize(pairRatios(samples.get(label, 'cpu'), ours)).median;
  console.log(
    `${label.padEnd(28)} ${median.toFixed(2).padStart(7)} µs per reply (${min.toFixed(2)} – ${max.toFixed(2)}), ${ratio.toFixed(2)} × rxagent`,
  );
}
if (parsed === 0) throw new Error('nothing parsed');
