/**
 * Profiling entry (not part of `pnpm bench`): the durable suite's in-process chat (20-turn
 * conversations of the long research chat on a scripted model) on an `InMemorySession`, or
 * not durable, in a loop; profiles the measured conversations after a warm-up.
 * Usage: `node --conditions=@rxagent/source --import tsx src/tools/profileDurable.ts InMemorySession 30 out.cpuprofile`
 * (`InMemorySession` or `none`; without a file, only times it).
 */
import { InMemorySession, textOf, userMsg } from '@rxagent/core';
import { ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom } from 'rxjs';
import { CpuProfile } from '../lib/cpuProfile.js';
import {
  LONG_CHAT_PROMPT,
  LongChatModel,
  longChatQuestion,
  longChatToolkit,
} from '../scenario/longChat.js';

const [which = 'InMemorySession', conversations = '30', out] = process.argv.slice(2);
const TURNS = 20;
let keys = 0;

async function conversation(): Promise<void> {
  const agent = new ReActAgent({
    name: 'researcher',
    sysPrompt: LONG_CHAT_PROMPT,
    model: new LongChatModel(),
    toolkit: longChatToolkit(),
    ...(which === 'InMemorySession' && {
      durable: { session: new InMemorySession(), key: `run-${keys++}` },
    }),
  });
  for (let turn = 0; turn < TURNS; turn++) {
    const reply = await lastValueFrom(agent.call(userMsg(longChatQuestion(turn))));
    if (textOf(reply) === '') throw new Error(`turn ${turn} got an empty answer`);
  }
}

for (let i = 0; i < 5; i++) await conversation();
const profiler = new CpuProfile(out !== undefined);
await profiler.start();
const t0 = performance.now();
for (let i = 0; i < Number(conversations); i++) await conversation();
const perTurn = (performance.now() - t0) / (Number(conversations) * TURNS);
await profiler.stopTo(out);
process.stdout.write(`${which}: ${(perTurn * 1000).toFixed(1)} µs per turn\n`);
