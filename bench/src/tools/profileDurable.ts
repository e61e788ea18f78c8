/**
 * Profiling entry (not part of `pnpm bench`): the durable suite's in-process chat (20-turn
 * conversations of the long research chat on a scripted model) on an `InMemorySession`, or
 * not durable, in a loop; profiles the measured conversations after a warm-up.
 * Usage: `node --conditions=@rxagent/source --import tsx src/tools/profileDurable.ts InMemorySession 30 out.cpuprofile`
 * (`InMemorySession`, `noop`: durable on a session that stores nothing, or `none`; without a
 * file, only times it; `all`: the three interleaved, CPU per turn).
 */
import {
  InMemorySession,
  type JsonObject,
  type VersionedSession,
  type VersionedState,
} from '@rxagent/core';
import { CpuProfile } from '../lib/cpuProfile.js';
import { chatTurns, longChatAgent } from '../scenario/longChat.js';

const [which = 'InMemorySession', conversations = '30', out] = process.argv.slice(2);

/** A versioned session that keeps nothing (what the checkpoints cost without a store). */
class NoopSession implements VersionedSession {
  async save(): Promise<void> {}
  async loadVersioned(): Promise<VersionedState | undefined> {
    return undefined;
  }
  async load(): Promise<JsonObject | undefined> {
    return undefined;
  }
  async delete(): Promise<void> {}
  async list(): Promise<string[]> {
    return [];
  }
}
const TURNS = 20;
let keys = 0;

async function conversation(kind = which): Promise<void> {
  const session = kind === 'noop' ? new NoopSession() : new InMemorySession();
  const durable = kind !== 'none' && { session, key: `run-${keys++}` };
  await chatTurns(longChatAgent(durable ? { durable } : {}), 0, TURNS);
}

if (which === 'all') {
  // The three interleaved, CPU µs per turn: the median of 9 rounds of `conversations` each.
  const kinds = ['none', 'noop', 'InMemorySession'];
  const samples = new Map(kinds.map((k) => [k, [] as number[]]));
  for (let round = 0; round < 10; round++) {
    for (const kind of kinds) {
      const cpu0 = process.cpuUsage();
      for (let i = 0; i < Number(conversations); i++) await conversation(kind);
      const cpu = process.cpuUsage(cpu0);
      if (round > 0)
        samples.get(kind)?.push((cpu.user + cpu.system) / (Number(conversations) * TURNS));
    }
  }
  for (const [kind, list] of samples) {
    const median = [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? 0;
    process.stdout.write(`${kind}: ${median.toFixed(1)} µs CPU per turn (median of 9 rounds)\n`);
  }
  process.exit(0);
}
for (let i = 0; i < 5; i++) await conversation();
const profiler = new CpuProfile(out !== undefined);
await profiler.start();
const t0 = performance.now();
for (let i = 0; i < Number(conversations); i++) await conversation();
const perTurn = (performance.now() - t0) / (Number(conversations) * TURNS);
await profiler.stopTo(out);
process.stdout.write(`${which}: ${(perTurn * 1000).toFixed(1)} µs per turn\n`);
