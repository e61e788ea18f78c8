/**
 * Deterministic work counts of one build (not part of `pnpm bench`): Observable
 * subscriptions and bytes allocated per in-process conversation, which unlike timings do
 * not move with the machine's load. Usage:
 * `node --import tsx --import ./src/build/register.mjs src/tools/workCount.ts <buildDir> [conversations] [--by-function[=N]]`;
 * `--turn-hook` gives the agent one no-op hook on the turn events (not the chunk ones).
 * `--by-function` also prints the N (default 30) frames allocating the most bytes per
 * conversation (the sampling profile's self size by function and source line), and with
 * `--stacks` the 3 callers above each of them. `--http` runs the conversation over HTTP
 * instead (`OpenAIChatModel` against the bench server in its own process, so only the
 * client's allocations count); there `fetch`, `sdk` and `node` count the hand-written loops.
 */
import { Session } from 'node:inspector/promises';
import { Observable } from 'rxjs';
import { fetchLoop } from '../contenders/fetchLoop.js';
import { handLoopInProcess } from '../contenders/inProcess.js';
import { nodeHttpLoop } from '../contenders/nodeHttpLoop.js';
import { noopHook, TURN_EVENTS } from '../contenders/noopHook.js';
import { sdkLoop } from '../contenders/sdkLoop.js';
import { type Build, buildConversation, loadBuild } from '../lib/loadBuild.js';
import { FINAL_ANSWER, USER_PROMPT } from '../scenario/conversation.js';
import { ServerProcess } from '../server/serverProcess.js';

const args = process.argv.slice(2);
const byFunctionArg = args.find((arg) => arg.startsWith('--by-function'));
const withStacks = args.includes('--stacks');
// With --own, rxjs, native and node frames count for the nearest rxagent frame that called them.
const ownFrames = args.includes('--own');
const [dir, countArg = '400'] = args.filter((arg) => !arg.startsWith('--'));
if (!dir) throw new Error('usage: workCount.ts <buildDir>|hand [conversations]');
// `hand` counts the hand-written loop (on the bench's own build) for reference.
const hand = dir === 'hand' ? handLoopInProcess() : undefined;
// --turn-hook: one synchronous no-op hook on the turn events (not the chunk ones).
const turnHook = noopHook(TURN_EVENTS);
const hooks = args.includes('--turn-hook') ? [turnHook] : [];
const server = args.includes('--http') ? await ServerProcess.start() : undefined;
/** The conversation over HTTP: a hand-written loop, or `build` on `OpenAIChatModel`. */
const overHttp = async (baseURL: string): Promise<() => Promise<string>> => {
  if (dir === 'fetch' || dir === 'sdk' || dir === 'node') {
    const loop =
      dir === 'fetch'
        ? fetchLoop(baseURL)
        : dir === 'node'
          ? nodeHttpLoop(baseURL)
          : sdkLoop(baseURL);
    return () => loop.run(USER_PROMPT);
  }
  const build: Build = await loadBuild(dir);
  const model = new build.react.OpenAIChatModel({ model: 'bench-model', baseURL, apiKey: 'k' });
  return buildConversation(build, () => model, hooks);
};
const conversation = server
  ? await overHttp(server.baseURL)
  : hand
    ? () => hand.run(USER_PROMPT)
    : buildConversation(await loadBuild(dir), undefined, hooks);
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
interface HeapNode {
  selfSize: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children: HeapNode[];
}
const frameName = ({ callFrame }: HeapNode) => {
  const short = callFrame.url.replace(
    /^.*\/(packages|node_modules\/\.pnpm|node_modules\/@rxagent|bench\/src)\//,
    '',
  );
  return `${callFrame.functionName || '(anonymous)'} ${short}:${callFrame.lineNumber + 1}`;
};
/** The package a frame belongs to; native and node-internal frames count for their JS caller's. */
const groupOf = (url: string): string | undefined => {
  if (url === '' || url.startsWith('node:')) return undefined;
  if (url.includes('/core/testing/')) return 'core/testing (the scripted model)';
  if (url.includes('/@rxagent/core/') || url.includes('/packages/core/')) return 'core';
  if (url.includes('/react-agent/')) return 'react-agent';
  if (url.includes('/openai@')) return 'openai';
  if (url.includes('/rxjs')) return 'rxjs';
  if (url.includes('/bench/')) return 'bench (scenario, contender)';
  return 'other';
};
const byGroup = new Map<string, number>();
let bytes = 0;
const byFrame = new Map<string, { bytes: number; stacks: Map<string, number> }>();
const isOwn = (url: string) => /@rxagent|\/packages\//.test(url);
const walk = (node: HeapNode, callers: string[], caller: string, owner: string) => {
  bytes += node.selfSize;
  const group = groupOf(node.callFrame.url) ?? caller;
  byGroup.set(group, (byGroup.get(group) ?? 0) + node.selfSize);
  const own = ownFrames && !isOwn(node.callFrame.url) ? owner : frameName(node);
  const name = ownFrames ? own : frameName(node);
  if (node.selfSize > 0) {
    const entry = byFrame.get(name) ?? { bytes: 0, stacks: new Map<string, number>() };
    entry.bytes += node.selfSize;
    const stack = callers.slice(-3).reverse().join('  <  ');
    entry.stacks.set(stack, (entry.stacks.get(stack) ?? 0) + node.selfSize);
    byFrame.set(name, entry);
  }
  callers.push(name);
  for (const child of node.children) walk(child, callers, group, own);
  callers.pop();
};
walk(profile.head as never, [], '(runtime)', '(outside rxagent)');
console.log(
  `${dir}: ${subscriptions} subscriptions, ${(bytes / count / 1024).toFixed(1)} KB allocated per conversation (model included)`,
);
if (byFunctionArg) {
  const top = Number(byFunctionArg.split('=')[1] ?? 30);
  const kb = (n: number) => `${(n / count / 1024).toFixed(2).padStart(7)} KB`;
  for (const [group, own] of [...byGroup].sort((a, b) => b[1] - a[1])) {
    console.log(`${kb(own)}  [${group}]`);
  }
  const sorted = [...byFrame].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, top);
  for (const [frame, { bytes: own, stacks }] of sorted) {
    console.log(`${kb(own)}  ${frame}`);
    if (!withStacks) continue;
    for (const [stack, size] of [...stacks].sort((a, b) => b[1] - a[1]).slice(0, 3)) {
      console.log(`             ${kb(size)}  < ${stack}`);
    }
  }
}
await server?.close();
