/**
 * Profiling entry (not part of `pnpm bench`): `AgentBase.call()` on an agent whose doCall
 * replies at once, profiled after warm-up.
 * Usage: `node --import tsx --import ./src/build/register.mjs src/tools/profileCall.ts 200000 out.cpuprofile`
 */
import { AgentBase, assistantMsg, type Msg, userMsg } from '@rxagent/core';
import { type Observable, of } from 'rxjs';
import { CpuProfile } from '../lib/cpuProfile.js';

const REPLY = assistantMsg('pong', { name: 'noop' });
class NoopAgent extends AgentBase {
  protected override doCall(): Observable<Msg> {
    return of(REPLY);
  }
}
const [callsArg = '200000', out] = process.argv.slice(2);
const agent = new NoopAgent({ name: 'noop' });
const input = [userMsg('ping')];
const run = (calls: number) => {
  for (let i = 0; i < calls; i++) agent.call(input).subscribe();
};
run(50_000);
const profiler = new CpuProfile(out !== undefined);
await profiler.start();
const t0 = performance.now();
run(Number(callsArg));
const perCall = ((performance.now() - t0) * 1000) / Number(callsArg);
await profiler.stopTo(out);
process.stdout.write(`call(): ${perCall.toFixed(2)} µs per call\n`);
