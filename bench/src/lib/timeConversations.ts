import type { Contender } from '../contenders/contender.js';
import { CALLS_PER_RUN, FINAL_ANSWER, USER_PROMPT } from '../scenario/conversation.js';

/** Wall and CPU microseconds per model call of one sample (a type alias: samples are records). */
export type CallTimes = { readonly wall: number; readonly cpu: number };

/**
 * Runs `runs` conversations of `contender` one after another, checks each ends with the
 * scenario's final answer, and returns wall and process-CPU µs per model call.
 */
export async function timeConversations(contender: Contender, runs: number): Promise<CallTimes> {
  const calls = runs * CALLS_PER_RUN;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) {
    const answer = await contender.run(USER_PROMPT);
    if (answer !== FINAL_ANSWER) {
      throw new Error(`${contender.label} answered ${JSON.stringify(answer)}`);
    }
  }
  const wall = ((performance.now() - t0) * 1000) / calls;
  const used = process.cpuUsage(cpu0);
  return { wall, cpu: (used.user + used.system) / calls };
}
