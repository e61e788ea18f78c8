/**
 * Profiling entry (not part of `pnpm bench`): runs the in-process conversation in a loop
 * and profiles the measured runs (after warm-up) with the inspector.
 * Usage: `node --conditions=@rxagent/source --import tsx src/tools/profileInProcess.ts rxagent 5000 out.cpuprofile`
 * (`rxagent`, `hand`, or `turn-hook`: rxagent with one no-op hook on the turn events, not
 * the chunk ones, as the chunkFreeHook suite runs it).
 */
import { handLoopInProcess, rxagentInProcess, scriptedModel } from '../contenders/inProcess.js';
import { noopHook, TURN_EVENTS } from '../contenders/noopHook.js';
import { CpuProfile } from '../lib/cpuProfile.js';
import { USER_PROMPT } from '../scenario/conversation.js';

const [which = 'rxagent', runs = '3000', out] = process.argv.slice(2);
const turnHook = noopHook(TURN_EVENTS);
const contender =
  which === 'rxagent'
    ? rxagentInProcess()
    : which === 'turn-hook'
      ? rxagentInProcess(scriptedModel, () => ({ hooks: [turnHook] }), 'rxagent + turn hook')
      : handLoopInProcess();
for (let i = 0; i < 500; i++) await contender.run(USER_PROMPT);
const profiler = new CpuProfile(out !== undefined);
await profiler.start();
const t0 = performance.now();
for (let i = 0; i < Number(runs); i++) await contender.run(USER_PROMPT);
const perTurn = ((performance.now() - t0) * 1000) / (Number(runs) * 4);
await profiler.stopTo(out);
process.stdout.write(`${contender.label}: ${perTurn.toFixed(1)} µs per turn\n`);
