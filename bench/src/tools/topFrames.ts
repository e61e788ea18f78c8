/**
 * Summarises a V8 `.cpuprofile` (from `node --cpu-prof`): the top frames by self time, and
 * self time grouped by package (rxagent core, react-agent, openai, undici, rxjs, node).
 * Usage: `node --import tsx src/tools/topFrames.ts <file.cpuprofile> [top] [frame-name]`;
 * with a frame name, also lists the call paths (3 callers deep) that lead to it.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topArg = '25', focus] = process.argv.slice(2);
if (!file) throw new Error('usage: topFrames.ts <file.cpuprofile> [top]');
// Several profiles (comma-separated) are summed, e.g. the segments of an interleaved run.
const profiles = file.split(',').map((path) => JSON.parse(readFileSync(path, 'utf8')) as Profile);
const byId = new Map<number, ProfileNode>();
const selfTime = new Map<number, number>();
profiles.forEach((profile, p) => {
  // Node ids are per profile: offset them so the profiles do not collide.
  const offset = p * 1_000_000;
  for (const node of profile.nodes) {
    byId.set(node.id + offset, {
      ...node,
      id: node.id + offset,
      children: (node.children ?? []).map((c) => c + offset),
    });
  }
  profile.samples.forEach((id, i) => {
    selfTime.set(id + offset, (selfTime.get(id + offset) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
});
const allNodes = [...byId.values()];
const total = [...selfTime.values()].reduce((a, b) => a + b, 0);

function groupOf(url: string, name: string): string {
  if (url.includes('/packages/core/') || url.includes('/@rxagent/core/')) return 'rxagent core';
  if (url.includes('/packages/react-agent/') || url.includes('/@rxagent/react-agent/')) {
    return 'rxagent react-agent';
  }
  if (url.includes('/bench/')) return 'bench (server IPC, contender)';
  const pkg = /node_modules\/\.pnpm\/([^/]+)\//.exec(url)?.[1];
  if (pkg) return pkg.replace(/_.*$/, '').replace(/@(\d[^@]*)$/, '');
  if (url.startsWith('node:')) return url.includes('undici') ? 'undici (fetch)' : 'node internals';
  if (name === '(garbage collector)') return 'GC';
  if (name === '(idle)' || name === '(program)') return name;
  return url === '' ? `(native) ${name}` : url;
}

const frames = new Map<string, number>();
const groups = new Map<string, number>();
for (const [id, time] of selfTime) {
  const node = byId.get(id)!;
  const { functionName, url, lineNumber } = node.callFrame;
  const short = url.replace(/^.*\/(packages|node_modules\/\.pnpm|node_modules\/@rxagent)\//, '');
  const key = `${functionName || '(anonymous)'} ${short}:${lineNumber + 1}`;
  frames.set(key, (frames.get(key) ?? 0) + time);
  const group = groupOf(url, functionName);
  groups.set(group, (groups.get(group) ?? 0) + time);
}

const pct = (time: number) => `${((100 * time) / total).toFixed(1).padStart(5)}%`;
const busy = total - (groups.get('(idle)') ?? 0);
console.log(
  `total ${(total / 1000).toFixed(0)} ms, busy ${(busy / 1000).toFixed(0)} ms\n\nself time by group:`,
);
for (const [group, time] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, 15)) {
  console.log(`${pct(time)}  ${group}`);
}
console.log(`\ntop ${topArg} frames by self time:`);
for (const [frame, time] of [...frames].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg))) {
  console.log(`${pct(time)}  ${frame}`);
}

if (focus) {
  const parent = new Map<number, number>();
  for (const node of allNodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const label = (id: number | undefined) => {
    const frame = id === undefined ? undefined : byId.get(id)?.callFrame;
    if (!frame) return '(root)';
    return `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*\/(packages|node_modules\/\.pnpm|node_modules\/@rxagent)\//, '')}:${frame.lineNumber + 1}`;
  };
  const paths = new Map<string, number>();
  for (const [id, time] of selfTime) {
    if (byId.get(id)?.callFrame.functionName !== focus) continue;
    const chain: string[] = [];
    let cursor: number | undefined = parent.get(id);
    for (let depth = 0; depth < 3 && cursor !== undefined; depth++) {
      chain.push(label(cursor));
      cursor = parent.get(cursor);
    }
    const key = chain.join('  <  ');
    paths.set(key, (paths.get(key) ?? 0) + time);
  }
  console.log(`\ncallers of ${focus}:`);
  for (const [path, time] of [...paths].sort((a, b) => b[1] - a[1]).slice(0, 12))
    console.log(`${pct(time)}  ${path}`);
}
