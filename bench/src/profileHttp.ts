/**
 * Profiling entry (not part of `pnpm bench`): runs one contender over HTTP in a loop so
 * `node --cpu-prof` sees where the client's time goes. Usage:
 * `node --cpu-prof --conditions=@rxagent/source --import tsx src/profileHttp.ts rxagent 600`
 */
import type { Contender } from './contenders/contender.js';
import { fetchLoop } from './contenders/fetchLoop.js';
import { rxagentHttp } from './contenders/rxagentHttp.js';
import { sdkLoop } from './contenders/sdkLoop.js';
import { nodeHttpFetch } from './lib/nodeHttpFetch.js';
import { USER_PROMPT } from './scenario/conversation.js';
import { ServerProcess } from './server/serverProcess.js';

const [which = 'rxagent', runs = '500'] = process.argv.slice(2);
const server = await ServerProcess.start();
const makers: Record<string, () => Contender> = {
  rxagent: () => rxagentHttp(server.baseURL),
  sdk: () => sdkLoop(server.baseURL),
  fetch: () => fetchLoop(server.baseURL),
  'rxagent-http': () => rxagentHttp(server.baseURL, 'rxagent + node:http', nodeHttpFetch()),
  'sdk-http': () => sdkLoop(server.baseURL, 'sdk + node:http', nodeHttpFetch()),
};
const maker = makers[which];
if (!maker) throw new Error(`unknown contender ${which}; one of ${Object.keys(makers).join(', ')}`);
const contender = maker();
for (let i = 0; i < 50; i++) await contender.run(USER_PROMPT);
const t0 = performance.now();
for (let i = 0; i < Number(runs); i++) await contender.run(USER_PROMPT);
const perCall = ((performance.now() - t0) * 1000) / (Number(runs) * 4);
process.stdout.write(`${contender.label}: ${perCall.toFixed(0)} µs per model call\n`);
await server.close();
