// One member of the team in its own process. Usage (main.ts starts three of these):
//   tsx --conditions=@rxagent/source src/agentProcess.ts <role> <redis-url> <topic>
// It joins the hub, speaks when the member before it has spoken, saves its state in Redis and
// reports on stdout: "ready", "heard <name>", "spoke".
import { chooseModel } from '@rxagent/example-kit';
import { RedisMsgHub, RedisSession } from '@rxagent/redis';
import { lastValueFrom } from 'rxjs';
import { createMember, isRole, SCRIPTS, SPEAKS_AFTER } from './roles.js';

const [role, url, topic] = process.argv.slice(2);
if (!isRole(role) || url === undefined || topic === undefined) {
  process.stderr.write('usage: agentProcess.ts <planner|critic|writer> <redis-url> <topic>\n');
  process.exit(2);
}

const agent = createMember(role, chooseModel(SCRIPTS[role]).model);
const session = new RedisSession({ url, prefix: `${topic}:state:` });
const hub = new RedisMsgHub({ url, topic, participants: [agent], consumer: role });
const say = (line: string): boolean => process.stdout.write(`${line}\n`);

let spoken = false;
hub.events.subscribe((event) => {
  if (event.type === 'error') {
    process.stderr.write(`${role}: ${String(event.error)}\n`);
    return;
  }
  say(`heard ${event.msg.name}`);
  if (event.msg.name !== SPEAKS_AFTER[role] || spoken) return;
  spoken = true;
  // The turn it heard is in its memory already: a call with no input answers it.
  lastValueFrom(agent.call())
    .then(() => session.save(role, agent.stateDict()))
    .then(
      () => say('spoke'),
      (error: unknown) => {
        process.stderr.write(`${role} failed: ${String(error)}\n`);
        process.exitCode = 1;
      },
    );
});

process.once('SIGTERM', () => {
  hub
    .close()
    .then(() => session.save(role, agent.stateDict()))
    .then(() => session.close())
    .finally(() => process.exit());
});

await lastValueFrom(hub.enter());
say('ready');
