// The endpoint process: serves the desk agent as a Restate virtual object on the port given.
// argv: port, ledger file.
import * as restate from '@restatedev/restate-sdk';
import { restateAgent } from '@rxagent/restate';
import { deskAgent } from './deskAgent.js';

const [port, ledger] = process.argv.slice(2) as [string, string];

const desk = restateAgent({
  name: 'desk',
  create: () => deskAgent(ledger),
  // Retry soon after the endpoint comes back (Restate's default backs off up to 10 s).
  options: { retryPolicy: { initialInterval: 100, maxInterval: 500 } },
});

await restate.serve({ services: [desk], port: Number(port) });
console.log('ready');
