/**
 * Deterministic work counts of one build (not part of `pnpm bench`): Observable
 * subscriptions and bytes allocated per in-process conversation, which unlike timings do
 * not move with the machine's load. Usage:
 * `node --import tsx --import ./src/build/register.mjs src/tools/workCount.ts <buildDir> [conversations]`
 */
import { Session } from 'node:inspector/promises';
import { Observable } from 'rxjs';
import { handLoopInProcess } from '../contenders/inProcess.js';
import { buildConversation, loadBuild } from '../lib/loadBuild.js';
import { FINAL_ANSWER, USER_PROMPT } from '../scenario/conversation.js';

const [dir, countArg = '400'] = process.argv.slice(2);
if (!dir) throw new Error('usage: workCount.ts <buildDir>|hand [conversations]');
// `hand` counts the hand-written loop (on the bench's own build) for reference.
const hand = dir === 'hand' ? handLoopInProcess() : undefined;
const conversation = hand ? () => hand.run(USER_PROMPT) : buildConversation(await loadBuild(dir));
const run = async () => {
  if ((await conversation()) !== FINAL_ANSWER) throw new Error('wrong answer');
};
for (let i = 0; i < 200; i++) await run();

const proto = Observable.prototype as unknown as { subscribe: (...args: unknown[]) => unknown };
const subscribe = proto.subscribe;
let subscriptions = 0;
proto.subscribe = function (this: unknown, ...args: unknown[]) {
  subscriptions++;
  return subscribe.apply(this, args);
};
await run();
proto.subscribe = subscribe;

const count = Number(countArg);
const session = new Session();
session.connect();
await session.post('HeapProfiler.enable');
await session.post('HeapProfiler.startSampling', {
  samplingInterval: 128,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
} as never);
for (let i = 0; i < count; i++) await run();
const { profile } = await session.post('HeapProfiler.stopSampling');
let bytes = 0;
const walk = (node: { selfSize: number; children: unknown[] }) => {
  bytes += node.selfSize;
  for (const child of node.children) walk(child as typeof node);
};
walk(profile.head as never);
console.log(
  `${dir}: ${subscriptions} subscriptions, ${(bytes / count / 1024).toFixed(1)} KB allocated per conversation (model included)`,
);
