/**
 * Heap retained per parked conversation, by object type (not part of `pnpm bench`): takes a
 * heap snapshot before and while N conversations of one contender are parked at their last
 * model call, and prints the per-conversation growth by constructor.
 * Usage: `node --expose-gc --import tsx --import ./src/build/register.mjs src/tools/heapByType.ts rxagent 300`
 */
import { Session } from 'node:inspector/promises';
import { createNodeFetch } from '@rxagent/react-agent';
import { BenchModel } from '../contenders/benchModel.js';
import type { Contender } from '../contenders/contender.js';
import { fetchLoop } from '../contenders/fetchLoop.js';
import { handLoopInProcess, rxagentInProcess } from '../contenders/inProcess.js';
import { nodeHttpLoop } from '../contenders/nodeHttpLoop.js';
import { rxagentHttp } from '../contenders/rxagentHttp.js';
import { sdkLoop } from '../contenders/sdkLoop.js';
import { takeHeapSnapshot } from '../lib/heapSnapshot.js';
import { delay } from '../lib/stats.js';
import { PARK_PROMPT } from '../scenario/conversation.js';
import { ServerProcess } from '../server/serverProcess.js';

async function snapshotByType(
  session: Session,
): Promise<Map<string, { count: number; bytes: number }>> {
  const snap = await takeHeapSnapshot(session);
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const width = fields.length;
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [
    number,
    number,
    number,
  ];
  const byType = new Map<string, { count: number; bytes: number }>();
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + typeAt]!]!;
    const raw = snap.strings[snap.nodes[i + nameAt]!]!;
    // With STRINGS=1, strings are counted by their (first 60 characters of) value.
    const text =
      process.env['STRINGS'] && type.includes('string')
        ? `: ${JSON.stringify(raw.slice(0, 60))}`
        : '';
    const name =
      type === 'object' || type === 'closure' || type === 'native' ? raw : `(${type})${text}`;
    const key = type === 'closure' ? `closure ${name}` : name;
    const entry = byType.get(key) ?? { count: 0, bytes: 0 };
    entry.count++;
    entry.bytes += snap.nodes[i + sizeAt]!;
    byType.set(key, entry);
  }
  return byType;
}

const [which = 'rxagent', countArg = '300'] = process.argv.slice(2);
const count = Number(countArg);
const server = await ServerProcess.start();
const model = new BenchModel();
const makers: Record<string, () => Contender> = {
  rxagent: () => rxagentHttp(server.baseURL),
  sdk: () => sdkLoop(server.baseURL),
  'sdk-node': () =>
    sdkLoop(server.baseURL, 'openai SDK loop on createNodeFetch', createNodeFetch()),
  fetch: () => fetchLoop(server.baseURL),
  node: () => nodeHttpLoop(server.baseURL),
  'rxagent-local': () => rxagentInProcess(() => model),
  'hand-local': () => handLoopInProcess(() => model),
};
const contender = makers[which]!();
const local = which.endsWith('-local');
const parking = {
  reset: async () => {
    if (local) model.parked = 0;
    else await server.resetParked();
  },
  wait: async (n: number) => {
    if (!local) return server.waitParked(n);
    while (model.parked < n) await delay(5);
  },
};
const session = new Session();
session.connect();
// Warm up: one parked round, so lazily created shared state exists before the baseline.
for (let round = 0; round < 2; round++) {
  await parking.reset();
  const controllers = Array.from({ length: count }, () => new AbortController());
  const runs = controllers.map((c) => contender.run(PARK_PROMPT, c.signal).catch(() => undefined));
  await parking.wait(count);
  await delay(300);
  if (round === 1) {
    for (const c of controllers) c.abort();
    await Promise.all(runs);
    break;
  }
  for (const c of controllers) c.abort();
  await Promise.all(runs);
}
const before = await snapshotByType(session);
await parking.reset();
const controllers = Array.from({ length: count }, () => new AbortController());
const runs = controllers.map((c) => contender.run(PARK_PROMPT, c.signal).catch(() => undefined));
await parking.wait(count);
await delay(300);
const after = await snapshotByType(session);
const rows = [...after].map(([key, a]) => {
  const b = before.get(key) ?? { count: 0, bytes: 0 };
  return { key, count: (a.count - b.count) / count, bytes: (a.bytes - b.bytes) / count };
});
const total = rows.reduce((sum, r) => sum + r.bytes, 0);
console.log(
  `${contender.label}: ${(total / 1024).toFixed(1)} KB per parked conversation (snapshot self sizes)`,
);
for (const r of rows.sort((x, y) => y.bytes - x.bytes).slice(0, 45)) {
  console.log(`${r.bytes.toFixed(0).padStart(7)} B  ${r.count.toFixed(1).padStart(6)} ×  ${r.key}`);
}
for (const c of controllers) c.abort();
await Promise.all(runs);
await server.close();
