/**
 * Which object owns the heap of a parked conversation (not part of `pnpm bench`): like
 * `heapByType.ts`, takes a heap snapshot before and while N conversations are parked at
 * their last model call, then charges every object that is new in the second snapshot to
 * its owner: the nearest holder, on its shortest path from the roots, whose constructor is
 * one of the framework's or transport's classes (`InMemoryMemory`, `Transcript`,
 * `ClientRequest`…), or the old object that holds it. Prints bytes and objects per
 * conversation by owner, with the owner's own edge to the subtree (`ActiveCall.#phases`).
 * Usage: `node --expose-gc --import tsx --import ./src/build/register.mjs src/tools/heapOwners.ts rxagent-local 300`
 */
import { Session } from 'node:inspector/promises';
import {
  type HeapSnapshot,
  nodeName,
  snapshotLayout,
  takeHeapSnapshot,
} from '../lib/heapSnapshot.js';
import { parkedContender } from '../lib/parkedContender.js';

/** Node ids of a snapshot. */
function idsOf(snap: HeapSnapshot): Set<number> {
  const { width, id } = snapshotLayout(snap);
  const ids = new Set<number>();
  for (let n = 0; n < snap.nodes.length; n += width) ids.add(snap.nodes[n + id]!);
  return ids;
}

function owners(snap: HeapSnapshot, old: Set<number>, depthOwners: boolean) {
  const layout = snapshotLayout(snap);
  const { width, edgeWidth, edgeTypes } = layout;
  const sizeAt = layout.selfSize;
  const edgeCountAt = layout.edgeCount;
  const idAt = layout.id;
  const edgeTypeAt = layout.edgeType;
  const edgeNameAt = layout.edgeName;
  const toAt = layout.to;
  const count = snap.nodes.length / width;
  const firstEdge = new Uint32Array(count + 1);
  for (let i = 0, e = 0; i < count; i++) {
    firstEdge[i] = e;
    e += snap.nodes[i * width + edgeCountAt]! * edgeWidth;
    firstEdge[i + 1] = e;
  }
  const nameOf = (i: number) => nodeName(snap, layout, i * width);
  // BFS from the root over strong edges: each node's parent on a shortest path.
  const parent = new Int32Array(count).fill(-1);
  const parentEdge = new Array<string>(count);
  parent[0] = 0;
  let queue = [0];
  while (queue.length > 0) {
    const next: number[] = [];
    for (const i of queue) {
      for (let e = firstEdge[i]!; e < firstEdge[i + 1]!; e += edgeWidth) {
        const type = edgeTypes[snap.edges[e + edgeTypeAt]!]!;
        if (type === 'weak' || type === 'shortcut') continue;
        const to = snap.edges[e + toAt]! / width;
        if (parent[to] !== -1) continue;
        parent[to] = i;
        const nameOrIndex = snap.edges[e + edgeNameAt]!;
        parentEdge[to] =
          type === 'element' || type === 'hidden' ? '[]' : (snap.strings[nameOrIndex] ?? '?');
        next.push(to);
      }
    }
    queue = next;
  }
  const isOwner = (i: number) => /^[A-Z#]/.test(nameOf(i)) && !GENERIC.has(nameOf(i));
  const out = new Map<string, [number, number]>();
  for (let i = 0; i < count; i++) {
    if (old.has(snap.nodes[i * width + idAt]!)) continue;
    let at = i;
    let child = i;
    let key = '(unreached)';
    for (let d = 0; d < 200 && parent[at] !== -1; d++) {
      if (at !== i && (old.has(snap.nodes[at * width + idAt]!) || isOwner(at))) {
        key = `${old.has(snap.nodes[at * width + idAt]!) ? 'old ' : ''}${nameOf(at)}.${parentEdge[child]}`;
        if (!depthOwners) key = `${nameOf(at)}.${parentEdge[child]}`;
        break;
      }
      if (at === 0) break;
      child = at;
      at = parent[at]!;
    }
    if (at === i && isOwner(i)) key = `${nameOf(i)} (self)`;
    if (detail !== undefined && key === detail)
      key = `${detail}: ${nameOf(i)} via .${parentEdge[i]}`;
    const entry = out.get(key) ?? [0, 0];
    entry[0] += snap.nodes[i * width + sizeAt]!;
    entry[1] += 1;
    out.set(key, entry);
  }
  return out;
}

/** With CONTEXTS=1: the new closure contexts by the variables they hold, and who holds them. */
function printContexts(snap: HeapSnapshot, old: Set<number>, per: number): void {
  const layout = snapshotLayout(snap);
  const { width, nodeTypes, edgeTypes } = layout;
  const ew = layout.edgeWidth;
  const typeAt = layout.type;
  const nameAt = layout.name;
  const sizeAt = layout.selfSize;
  const ecAt = layout.edgeCount;
  const idAt = layout.id;
  const etAt = layout.edgeType;
  const enAt = layout.edgeName;
  const toAt = layout.to;
  const holders = new Map<number, string[]>();
  const vars = new Map<number, string[]>();
  let e = 0;
  for (let n = 0; n < snap.nodes.length; n += width) {
    const name = snap.strings[snap.nodes[n + nameAt]!]!;
    const type = nodeTypes[snap.nodes[n + typeAt]!]!;
    for (let k = 0; k < snap.nodes[n + ecAt]!; k++, e += ew) {
      const to = snap.edges[e + toAt]!;
      const et = edgeTypes[snap.edges[e + etAt]!]!;
      const label =
        et === 'element' || et === 'hidden' ? '[]' : snap.strings[snap.edges[e + enAt]!]!;
      if (et === 'context' && name === 'system / Context')
        (vars.get(n) ?? vars.set(n, []).get(n)!).push(label);
      if (type === 'closure' && label === 'context')
        (holders.get(to) ?? holders.set(to, []).get(to)!).push(name || '(anon)');
    }
  }
  const groups = new Map<string, [number, number]>();
  for (const [n, names] of vars) {
    if (old.has(snap.nodes[n + idAt]!)) continue;
    const key = `[${(holders.get(n) ?? []).join(',')}] {${names.join(', ')}}`;
    const g = groups.get(key) ?? [0, 0];
    g[0] += snap.nodes[n + sizeAt]!;
    g[1] += 1;
    groups.set(key, g);
  }
  for (const [key, [bytes, n]] of [...groups].sort((a, b) => b[1][0] - a[1][0]).slice(0, 60)) {
    if (n / per < 0.5) continue;
    console.log(
      `${(bytes / per).toFixed(0).padStart(6)} B ${(n / per).toFixed(1).padStart(5)} ×  ${key}`,
    );
  }
}

/** With DETAIL=<owner key> (`ConsumerObserver.partialObserver`): that owner's objects, each by its type and the edge that reaches it. */
const detail = process.env['DETAIL'];

/** Constructor names too general to own anything. */
const GENERIC = new Set([
  'Object',
  'Array',
  'Map',
  'Set',
  'Promise',
  'Function',
  'Error',
  ...(process.env['GENERIC'] ?? '').split(',').filter(Boolean),
]);

const [which = 'rxagent-local', countArg = '300'] = process.argv.slice(2);
const count = Number(countArg);
const { contender, park, close } = await parkedContender(which, count);
const session = new Session();
session.connect();
await (await park())(); // warm-up: shared state created lazily exists before the baseline
const old = idsOf(await takeHeapSnapshot(session));
const release = await park();
const snap = await takeHeapSnapshot(session);
if (process.env['CONTEXTS']) printContexts(snap, old, count);
const rows = [...owners(snap, old, true)].map(([key, [bytes, n]]) => ({
  key,
  bytes: bytes / count,
  n: n / count,
}));
const total = rows.reduce((sum, r) => sum + r.bytes, 0);
console.log(`${contender.label}: ${(total / 1024).toFixed(2)} KB of new objects per conversation`);
for (const r of rows.sort((x, y) => y.bytes - x.bytes).slice(0, 70)) {
  if (r.bytes < 16) break;
  console.log(`${r.bytes.toFixed(0).padStart(7)} B ${r.n.toFixed(1).padStart(6)} ×  ${r.key}`);
}
await release();
await close();
