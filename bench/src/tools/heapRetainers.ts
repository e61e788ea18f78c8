/**
 * Who holds the heap of a parked conversation (not part of `pnpm bench`): like
 * `heapByType.ts`, takes a heap snapshot before and while N conversations are parked at
 * their last model call, but groups the growth of the objects of one type (default: the
 * backing stores of arrays, `(array)`) by what holds them: the holder's constructor and the
 * property it is held by (`Msg.content`, `Array[]`…), and their holders up to `depth`, with the
 * bytes and count per conversation. Usage:
 * `node --expose-gc --import tsx --import ./src/build/register.mjs src/tools/heapRetainers.ts rxagent-local 300 '(array)' 3`
 */
import { Session } from 'node:inspector/promises';
import { nodeName, snapshotLayout, takeHeapSnapshot } from '../lib/heapSnapshot.js';
import { parkedContender } from '../lib/parkedContender.js';

/** Bytes and count of the matching objects, by `holder.edge`. */
async function byHolder(
  session: Session,
  wanted: string,
  depth: number,
): Promise<Map<string, number[]>> {
  const snap = await takeHeapSnapshot(session);
  const layout = snapshotLayout(snap);
  const { width, edgeWidth, edgeTypes } = layout;
  const sizeAt = layout.selfSize;
  const edgeCountAt = layout.edgeCount;
  const edgeTypeAt = layout.edgeType;
  const edgeNameAt = layout.edgeName;
  const toAt = layout.to;
  const nameOf = (n: number) => nodeName(snap, layout, n);
  const holder = new Map<number, [number, string]>();
  let edge = 0;
  for (let n = 0; n < snap.nodes.length; n += width) {
    const count = snap.nodes[n + edgeCountAt]!;
    for (let e = 0; e < count; e++, edge += edgeWidth) {
      const to = snap.edges[edge + toAt]!;
      const type = edgeTypes[snap.edges[edge + edgeTypeAt]!]!;
      if (type === 'weak' || holder.has(to)) continue;
      const nameOrIndex = snap.edges[edge + edgeNameAt]!;
      const label =
        type === 'element' || type === 'hidden' ? '[]' : (snap.strings[nameOrIndex] ?? '?');
      holder.set(to, [n, label]);
    }
  }
  const out = new Map<string, number[]>();
  for (let n = 0; n < snap.nodes.length; n += width) {
    if (nameOf(n) !== wanted) continue;
    // The chain of holders, `depth` deep: `Msg.content < Object.messages` reads "held by".
    const chain: string[] = [];
    for (let at = holder.get(n), d = 0; at && d < depth; at = holder.get(at[0]), d++) {
      chain.push(`${nameOf(at[0])}.${at[1]}`);
    }
    const key = chain.join(' < ') || '(root)';
    const entry = out.get(key) ?? [0, 0];
    entry[0]! += snap.nodes[n + sizeAt]!;
    entry[1]! += 1;
    out.set(key, entry);
  }
  return out;
}

const [which = 'rxagent-local', countArg = '300', wanted = '(array)', depthArg = '3'] =
  process.argv.slice(2);
const depth = Number(depthArg);
const count = Number(countArg);
const { contender, park, close } = await parkedContender(which, count);
const session = new Session();
session.connect();
await (await park())(); // warm-up: shared state created lazily exists before the baseline
const before = await byHolder(session, wanted, depth);
const release = await park();
const after = await byHolder(session, wanted, depth);
const rows = [...after].map(([key, [bytes, n]]) => {
  const [b0, n0] = before.get(key) ?? [0, 0];
  return { key, bytes: (bytes! - b0!) / count, n: (n! - n0!) / count };
});
const total = rows.reduce((sum, r) => sum + r.bytes, 0);
console.log(
  `${contender.label}: ${wanted} ${(total / 1024).toFixed(2)} KB per parked conversation`,
);
for (const r of rows.sort((x, y) => y.bytes - x.bytes).slice(0, 40)) {
  if (Math.abs(r.bytes) < 8) break;
  console.log(`${r.bytes.toFixed(0).padStart(7)} B ${r.n.toFixed(1).padStart(6)} ×  ${r.key}`);
}
await release();
await close();
