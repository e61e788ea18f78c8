/**
 * The rxagent benchmarks (`pnpm bench`, or `pnpm bench -- --quick` for a smoke run;
 * `--only=inProcess,streaming` runs some suites; `--only=redis` runs the opt-in Redis suite,
 * which needs redis-server). Prints a table per suite and the budget
 * lines, and writes the results under bench/results/. See BENCHMARKS.md.
 */
import { configFrom } from './lib/config.js';
import { machine, renderBudgets, writeResults } from './lib/report.js';
import type { SuiteResult } from './lib/result.js';
import { renderSuite } from './lib/table.js';
import { ServerProcess } from './server/serverProcess.js';
import { abortedCalls } from './suites/abortedCalls.js';
import { agentHost } from './suites/agentHost.js';
import { anthropicHttp } from './suites/anthropicHttp.js';
import { chunkFreeHook } from './suites/chunkFreeHook.js';
import { durable } from './suites/durable.js';
import { evalOverhead } from './suites/evalOverhead.js';
import { guardrails } from './suites/guardrails.js';
import { hookOverhead } from './suites/hookOverhead.js';
import { httpConcurrent } from './suites/httpConcurrent.js';
import { httpSequential } from './suites/httpSequential.js';
import { importTime } from './suites/importTime.js';
import { inProcess } from './suites/inProcess.js';
import { longConversation } from './suites/longConversation.js';
import { longLoop } from './suites/longLoop.js';
import { memory } from './suites/memory.js';
import { otelOverhead } from './suites/otelOverhead.js';
import { parkedAgents } from './suites/parkedAgents.js';
import { postgres } from './suites/postgres.js';
import { promptCache } from './suites/promptCache.js';
import { redis } from './suites/redis.js';
import { restate } from './suites/restate.js';
import { sqlite } from './suites/sqlite.js';
import { streaming } from './suites/streaming.js';
import { workers } from './suites/workers.js';

const SUITES = [
  'httpSequential',
  'httpConcurrent',
  'anthropicHttp',
  'inProcess',
  'hookOverhead',
  'otelOverhead',
  'chunkFreeHook',
  'abortedCalls',
  'parkedAgents',
  'streaming',
  'importTime',
  'redis',
  'longConversation',
  'longLoop',
  'agentHost',
  'workers',
  'evalOverhead',
  'durable',
  'guardrails',
  'sqlite',
  'restate',
  'promptCache',
  'postgres',
  'memory',
] as const;
/** Suites that run only when named in `--only=` (they need more than Node: a server, a build). */
const OPT_IN: ReadonlySet<string> = new Set([
  'redis',
  'workers',
  'durable',
  'sqlite',
  'restate',
  'postgres',
  'memory',
]);

const args = process.argv.slice(2);
const config = configFrom(args);
const only = args
  .find((a) => a.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const unknown = only?.filter((id) => !(SUITES as readonly string[]).includes(id)) ?? [];
if (unknown.length > 0)
  throw new Error(`Unknown suite(s) ${unknown.join(', ')}; choose from ${SUITES.join(', ')}.`);
const want = (id: (typeof SUITES)[number]) => (only ? only.includes(id) : !OPT_IN.has(id));
// Under `start:source` the packages run from their TypeScript sources (tsx), else built.
const mode = process.execArgv.some((arg) => arg.includes('@rxagent/source')) ? 'source' : 'built';

const m = machine();
console.log(
  `rxagent bench (${config.quick ? 'quick' : 'full'}, ${mode} packages) on ${m.cores} × ${m.cpu}, Node ${m.node}`,
);
const started = performance.now();
const results: SuiteResult[] = [];
const report = (result: SuiteResult) => {
  results.push(result);
  console.log(renderSuite(result));
};

const server = await ServerProcess.start();
try {
  if (want('httpSequential')) report(await httpSequential(server, config));
  if (want('httpConcurrent')) report(await httpConcurrent(server, config));
  if (want('anthropicHttp')) report(await anthropicHttp(config));
  if (want('inProcess')) report(await inProcess(config));
  if (want('hookOverhead')) report(await hookOverhead(config));
  if (want('otelOverhead')) report(await otelOverhead(config));
  if (want('chunkFreeHook')) report(await chunkFreeHook(config));
  // Before the parked agents: their 1,000 closed sockets would still be freed during the
  // aborted-calls run and make its heap look smaller than its baseline.
  if (want('abortedCalls')) report(await abortedCalls(server, config));
  if (want('parkedAgents')) report(await parkedAgents(server, config));
} finally {
  await server.close();
}
if (want('streaming')) report(await streaming(config));
if (want('importTime')) report(await importTime(config));
if (want('redis')) report(await redis(config));
if (want('longConversation')) report(await longConversation(config));
if (want('longLoop')) report(await longLoop(config));
if (want('agentHost')) report(await agentHost(config));
if (want('workers')) report(await workers(config));
if (want('evalOverhead')) report(await evalOverhead(config));
if (want('durable')) report(await durable(config));
if (want('guardrails')) report(await guardrails(config));
if (want('sqlite')) report(await sqlite(config));
if (want('restate')) report(await restate(config));
if (want('promptCache')) report(await promptCache(config));
if (want('postgres')) report(await postgres(config));
if (want('memory')) report(await memory(config));

const seconds = (performance.now() - started) / 1000;
console.log(renderBudgets(results));
const file = writeResults(results, config, mode, seconds, only);
console.log(`\n${results.length} suite(s) in ${seconds.toFixed(0)} s; results written to ${file}`);
