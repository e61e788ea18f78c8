/**
 * Deterministic work counts of one build (not part of `pnpm bench`): Observable
 * subscriptions and bytes allocated per in-process conversation, which unlike timings do
 * not move with the machine's load. Usage:
 * `node --import tsx --import ./src/build/register.mjs src/tools/workCount.ts <buildDir> [conversations]`
 */
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { lastValueFrom, Observable } from 'rxjs';
import { BUILD_DIR } from '../build/buildPackages.js';
import { handLoopInProcess } from '../contenders/inProcess.js';
import {
  CALLS_PER_RUN,
  FINAL_ANSWER,
  SYSTEM_PROMPT,
  scenarioTurn,
  USER_PROMPT,
} from '../scenario/conversation.js';
import { BENCH_TOOLS } from '../scenario/tools.js';

type Core = typeof import('@rxagent/core');
type Testing = typeof import('@rxagent/core/testing');
type React = typeof import('@rxagent/react-agent');

const [dir, countArg = '400'] = process.argv.slice(2);
if (!dir) throw new Error('usage: workCount.ts <buildDir>|hand [conversations]');
// `hand` counts the hand-written loop (on the bench's own build) for reference.
const hand = dir === 'hand' ? handLoopInProcess() : undefined;
const at = (path: string) =>
  pathToFileURL(join(hand ? BUILD_DIR : dir, 'node_modules/@rxagent', path)).href;
const core = (await import(at('core/index.js'))) as Core;
const testing = (await import(at('core/testing/index.js'))) as Testing;
const react = (await import(at('react-agent/index.js'))) as React;
const toolkit = new core.Toolkit(
  BENCH_TOOLS.map((t) =>
    core.tool({ name: t.name, description: t.description, parameters: t.args, execute: t.run }),
  ),
);
const run = async () => {
  if (hand) {
    if ((await hand.run(USER_PROMPT)) !== FINAL_ANSWER) throw new Error('wrong answer');
    return;
  }
  const model = new testing.ScriptedChatModel(
    Array.from(
      { length: CALLS_PER_RUN },
      () => (request: { messages: Parameters<typeof scenarioTurn>[0] }) =>
        scenarioTurn(request.messages),
    ),
    { strict: false },
  );
  const agent = new react.ReActAgent({
    name: 'assistant',
    sysPrompt: SYSTEM_PROMPT,
    model,
    toolkit,
  });
  const answer = await lastValueFrom(agent.call(core.userMsg(USER_PROMPT)));
  if (answer.content[0]?.type !== 'text' || answer.content[0].text !== FINAL_ANSWER)
    throw new Error('wrong answer');
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
