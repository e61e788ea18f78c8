/**
 * What `formatMessages` costs per request, two builds side by side (not part of `pnpm bench`):
 * `node --conditions=@rxagent/source --import tsx src/tools/formatCost.ts <buildA> <buildB> [rounds] [toolRounds]`,
 * builds made by `src/build/buildPackages.ts`. Each conversation is fresh (new Msgs, as a
 * fresh agent per conversation has): a user question, then `toolRounds` rounds of an
 * assistant turn with two tool calls and a tool Msg with both results; every request of the
 * conversation is formatted, as the ReAct loop does (3 rounds: the bench scenario's 4
 * requests; 40: a long conversation whose requests reach 81 Msgs). Prints CPU µs per
 * request, the time of building the Msgs taken out, and the median of the per-round B/A.
 */
import { loadBuild } from '../lib/loadBuild.js';
import { pairRatios, summarize } from '../lib/stats.js';

type Core = Awaited<ReturnType<typeof loadBuild>>['core'];
type Msg = ReturnType<Core['userMsg']>;

const [dirA, dirB, roundsArg = '15', toolRoundsArg = '3'] = process.argv.slice(2);
if (!dirA || !dirB) throw new Error('usage: formatCost.ts <buildA> <buildB> [rounds] [toolRounds]');
const toolRounds = Number(toolRoundsArg);
const conversations = Math.max(20, Math.round(20_000 / (toolRounds * toolRounds)));

function conversation(core: Core): Msg[] {
  const msgs = [core.userMsg('What is the weather and the time in Paris?')];
  for (let round = 0; round < toolRounds; round++) {
    msgs.push(
      core.createMsg({
        name: 'assistant',
        role: 'assistant',
        metadata: { model: 'm' },
        content: [
          { type: 'tool_use', id: `a${round}`, name: 'get_weather', input: { city: 'Paris' } },
          { type: 'tool_use', id: `b${round}`, name: 'get_time', input: { city: 'Paris' } },
        ],
      }),
      core.createMsg({
        name: 'assistant',
        role: 'tool',
        content: [
          { type: 'tool_result', id: `a${round}`, name: 'get_weather', output: '{"temp":21}' },
          { type: 'tool_result', id: `b${round}`, name: 'get_time', output: '{"time":"12:00"}' },
        ],
      }),
    );
  }
  return msgs;
}

/** CPU µs per request over `conversations` conversations; with `format` false, the Msgs alone. */
function measure(core: Core, format: boolean): number {
  const options = { systemPrompt: 'Be brief.', selfName: 'assistant', model: 'm' };
  const start = process.cpuUsage();
  for (let i = 0; i < conversations; i++) {
    const msgs = conversation(core);
    for (let end = 1; end <= msgs.length; end += 2) {
      const request = msgs.slice(0, end);
      if (format) core.formatMessages(request, options);
    }
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / conversations / (toolRounds + 1);
}

const a = (await loadBuild(dirA)).core;
const b = (await loadBuild(dirB)).core;
for (let warm = 0; warm < 3; warm++) for (const core of [a, b]) measure(core, true);
const costA: number[] = [];
const costB: number[] = [];
for (let round = 0; round < Number(roundsArg); round++) {
  const order: [Core, number[]][] =
    round % 2 === 0
      ? [
          [a, costA],
          [b, costB],
        ]
      : [
          [b, costB],
          [a, costA],
        ];
  for (const [core, out] of order) out.push(measure(core, true) - measure(core, false));
}
const sa = summarize(costA);
const sb = summarize(costB);
const ratio = summarize(pairRatios(costB, costA));
process.stdout.write(
  `format µs per request, ${toolRounds} tool rounds: A ${sa.median.toFixed(2)}, B ${sb.median.toFixed(2)}, B/A ${ratio.median.toFixed(3)} (${ratio.min.toFixed(2)}–${ratio.max.toFixed(2)})\n`,
);
