/**
 * A plain Node program (no test runner, no `uncaughtException` handler) serving
 * `agUiHandler` on a free loopback port, one scripted weather agent per thread. It prints
 * `listening <url>` once it serves; anything a request makes escape the handler kills it,
 * which the test that spawns it sees.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { agUiHandler } from '@rxagent/ag-ui';
import type { AgentBase } from '@rxagent/core';
import { weatherAgent } from './weatherAgent.js';

const agents = new Map<string, AgentBase>();
const server = createServer(
  agUiHandler(({ threadId }) => {
    let agent = agents.get(threadId);
    if (agent === undefined) {
      agent = weatherAgent(Array.from({ length: 20 }, () => 'Still here.'));
      agents.set(threadId, agent);
    }
    return agent;
  }),
);
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(`listening http://127.0.0.1:${port}/agent`);
});
