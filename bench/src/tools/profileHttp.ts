/**
 * Profiling entry (not part of `pnpm bench`): runs one contender over HTTP in a loop and
 * profiles the measured runs only (after warm-up) with the inspector, like `--cpu-prof`.
 * Usage: `node --import tsx --import ./src/build/register.mjs src/tools/profileHttp.ts rxagent,sdk 200 /tmp/p 4`
 * (contenders, runs per segment, profile prefix, rounds), then
 * `node --import tsx src/tools/topFrames.ts /tmp/p.rxagent.0.cpuprofile,/tmp/p.rxagent.1.cpuprofile`.
 */
import { createNodeFetch } from '@rxagent/react-agent';
import type { Contender } from '../contenders/contender.js';
import { fetchLoop } from '../contenders/fetchLoop.js';
import { nodeHttpLoop } from '../contenders/nodeHttpLoop.js';
import { rxagentHttp } from '../contenders/rxagentHttp.js';
import { sdkLoop } from '../contenders/sdkLoop.js';
import { CpuProfile } from '../lib/cpuProfile.js';
import { USER_PROMPT } from '../scenario/conversation.js';
import { ServerProcess } from '../server/serverProcess.js';

const [which = 'rxagent', runs = '500', out, roundsArg = '1'] = process.argv.slice(2);
const server = await ServerProcess.start();
const makers: Record<string, () => Contender> = {
  rxagent: () => rxagentHttp(server.baseURL),
  sdk: () => sdkLoop(server.baseURL),
  fetch: () => fetchLoop(server.baseURL),
  node: () => nodeHttpLoop(server.baseURL),
  'rxagent-fetch': () => rxagentHttp(server.baseURL, "rxagent on Node's fetch", globalThis.fetch),
  'sdk-node': () => sdkLoop(server.baseURL, 'sdk on createNodeFetch', createNodeFetch()),
};
// Several contenders (comma-separated) run interleaved, one profile file per contender and round.
const contenders = which.split(',').map((name) => {
  const maker = makers[name];
  if (!maker)
    throw new Error(`unknown contender ${name}; one of ${Object.keys(makers).join(', ')}`);
  return { name, contender: maker() };
});
for (const { contender } of contenders)
  for (let i = 0; i < 400; i++) await contender.run(USER_PROMPT);
const profiler = new CpuProfile(out !== undefined);
const totals = new Map<string, { wall: number; cpu: number; calls: number }>();
for (let round = 0; round < Number(roundsArg); round++) {
  for (const { name, contender } of contenders) {
    await profiler.start();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < Number(runs); i++) await contender.run(USER_PROMPT);
    const wall = (performance.now() - t0) * 1000;
    const cpu = process.cpuUsage(cpu0);
    await profiler.stopTo(out && `${out}.${name}.${round}.cpuprofile`);
    const total = totals.get(name) ?? { wall: 0, cpu: 0, calls: 0 };
    totals.set(name, {
      wall: total.wall + wall,
      cpu: total.cpu + cpu.user + cpu.system,
      calls: total.calls + Number(runs) * 4,
    });
  }
}
for (const [name, t] of totals) {
  process.stdout.write(
    `${name}: ${(t.wall / t.calls).toFixed(0)} µs wall, ${(t.cpu / t.calls).toFixed(0)} µs CPU per model call\n`,
  );
}
await server.close();
