// The Restate endpoint of the `restate` suite: serves `plain` (answers at once) and `tools`
// (four tool rounds, then an answer) as virtual objects on the port given.
import * as restate from '@restatedev/restate-sdk';
import { restateAgent } from '@rxagent/restate';
import { benchAgent } from './restateAgents.js';

const port = Number(process.argv[2]);
const services = [
  restateAgent({ name: 'plain', create: () => benchAgent(0) }),
  restateAgent({ name: 'tools', create: () => benchAgent(4) }),
];
await restate.serve({ services, port });
console.log('ready');
