/**
 * Counts the objects frozen per model call in the benchmark conversation on a build:
 * `node --conditions=@rxagent/source --import tsx src/tools/countFreezes.ts <build> [runs]`.
 * Work counted rather than timed, so a busy machine does not blur it: what deep-freezing
 * every Msg adds to a turn (each frozen object costs one `Object.freeze`).
 */
import { conversation } from '../ab/scenarios.js';
import { loadBuild } from '../lib/loadBuild.js';

const [dir, runsArg = '50'] = process.argv.slice(2);
if (!dir) throw new Error('usage: countFreezes.ts <build> [runs]');
const build = await loadBuild(dir);
const { run, callsPerRun } = conversation(build, undefined, undefined);
for (let warm = 0; warm < 5; warm++) await run();

const freeze = Object.freeze;
let frozen = 0;
let checks = 0;
const isFrozen = Object.isFrozen;
Object.freeze = <T>(value: T): Readonly<T> => {
  frozen++;
  return freeze(value);
};
Object.isFrozen = (value: unknown): boolean => {
  checks++;
  return isFrozen(value);
};
const runs = Number(runsArg);
for (let index = 0; index < runs; index++) await run();
Object.freeze = freeze;
Object.isFrozen = isFrozen;
const calls = runs * callsPerRun;
console.log(
  `${dir}: ${(frozen / calls).toFixed(1)} Object.freeze and ${(checks / calls).toFixed(1)} Object.isFrozen per model call (${calls} calls)`,
);
