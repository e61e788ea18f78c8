/**
 * Compares two sets of V8 CPU profiles (e.g. rxagent vs the SDK loop, from profileHttp.ts)
 * by inclusive time per frame, normalised per unit of work: shows where the first set spends
 * more. Usage: `node --import tsx src/tools/diffProfiles.ts <a1,a2,...> <unitsA> <b1,b2,...> <unitsB> [top]`
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function frameKey(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const short = url.replace(/^.*\/(packages|node_modules\/\.pnpm|node_modules\/@rxagent)\//, '');
  return `${functionName || '(anonymous)'} ${short}:${lineNumber + 1}`;
}

/** Inclusive microseconds per frame key, summed over the profiles. */
function inclusive(files: string): Map<string, number> {
  const totals = new Map<string, number>();
  for (const path of files.split(',')) {
    const profile = JSON.parse(readFileSync(path, 'utf8')) as Profile;
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    const parent = new Map<number, number>();
    for (const node of profile.nodes)
      for (const child of node.children ?? []) parent.set(child, node.id);
    profile.samples.forEach((id, i) => {
      const dt = profile.timeDeltas[i] ?? 0;
      const seen = new Set<string>();
      for (let cursor: number | undefined = id; cursor !== undefined; cursor = parent.get(cursor)) {
        const key = frameKey(byId.get(cursor)!);
        if (seen.has(key)) continue;
        seen.add(key);
        totals.set(key, (totals.get(key) ?? 0) + dt);
      }
    });
  }
  return totals;
}

const [filesA, unitsA, filesB, unitsB, topArg = '40'] = process.argv.slice(2);
if (!filesA || !unitsA || !filesB || !unitsB)
  throw new Error('usage: diffProfiles.ts <a,...> <unitsA> <b,...> <unitsB> [top]');
const a = inclusive(filesA);
const b = inclusive(filesB);
const rows = [...new Set([...a.keys(), ...b.keys()])].map((key) => {
  const perA = (a.get(key) ?? 0) / Number(unitsA);
  const perB = (b.get(key) ?? 0) / Number(unitsB);
  return { key, perA, perB, diff: perA - perB };
});
console.log('inclusive µs per unit:      A        B   A − B  frame');
for (const r of rows.sort((x, y) => y.diff - x.diff).slice(0, Number(topArg))) {
  console.log(
    `${r.perA.toFixed(1).padStart(25)} ${r.perB.toFixed(1).padStart(8)} ${r.diff.toFixed(1).padStart(7)}  ${r.key}`,
  );
}
