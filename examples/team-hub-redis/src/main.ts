import { randomUUID } from 'node:crypto';
import { type Msg, textOf, userMsg } from '@rxagent/core';
import { chooseModel, type ExampleOptions, runMain } from '@rxagent/example-kit';
import { type RedisHubEvent, RedisMsgHub, RedisSession } from '@rxagent/redis';
import { type RedisServer, startRedisServer } from '@rxagent/redis/testing';
import { filter, firstValueFrom, lastValueFrom, map, takeWhile, toArray } from 'rxjs';
import { type MemberProcess, startMember } from './memberProcess.js';
import { createMember, ROLES, type Role, SCRIPTS, TOPIC } from './roles.js';

/** What a run produced, for tests and callers. */
export interface TeamHubRedisResult {
  readonly mode: 'offline' | 'live';
  /** Where Redis was: `REDIS_URL`, or the private server this run started. */
  readonly redisUrl: string;
  /** The process id of each member: three processes, none of them this one. */
  readonly pids: Readonly<Record<Role, number>>;
  /** The three turns, in the order the hub's stream holds them. */
  readonly turns: readonly Msg[];
  /** Who each member heard, read back from the state it saved in Redis. */
  readonly heard: Readonly<Record<Role, readonly string[]>>;
}

/**
 * The team-hub scenario across processes: the planner, the critic and the writer each run in
 * their own Node process and talk through a `RedisMsgHub`. This process starts them (and a
 * private `redis-server` when `REDIS_URL` is not set), broadcasts the user's topic, prints
 * each turn as the hub delivers it, then stops the members (each saves its state in a
 * `RedisSession`) and prints who heard what from those saved states.
 */
export async function main(options: ExampleOptions = {}): Promise<TeamHubRedisResult> {
  const out = options.out ?? process.stdout;
  const env = options.env ?? process.env;
  const choice = chooseModel(SCRIPTS.planner, env);
  out.write(`${choice.banner}\n`);
  const server: RedisServer | undefined = env['REDIS_URL'] ? undefined : await startRedisServer();
  const redisUrl = env['REDIS_URL'] ?? server?.url ?? '';
  out.write(
    env['REDIS_URL']
      ? `redis: ${redisUrl}\n\n`
      : `redis: a private redis-server at ${redisUrl}\n\n`,
  );
  const topic = `offsite:${randomUUID().slice(0, 8)}`;
  const hub = new RedisMsgHub({ url: redisUrl, topic, participants: [], consumer: 'coordinator' });
  const session = new RedisSession({ url: redisUrl, prefix: `${topic}:state:` });
  const members: MemberProcess[] = [];
  try {
    await lastValueFrom(hub.enter());
    const childEnv = { ...env, REDIS_URL: redisUrl };
    for (const role of ROLES) members.push(startMember(role, redisUrl, topic, childEnv));
    await Promise.all(members.map((member) => member.waitFor('ready')));
    for (const member of members) out.write(`${member.role} runs in process ${member.pid}\n`);

    const round = collectTurns(hub, (msg) => out.write(`\n${msg.name}: ${textOf(msg)}\n`));
    out.write(`\nuser: ${TOPIC}\n`);
    await lastValueFrom(hub.broadcast(userMsg(TOPIC)));
    const turns = await round;
    // The planner and the critic spoke first: wait until they have heard the writer too.
    await Promise.all(members.slice(0, 2).map((member) => member.waitFor('heard writer')));
    await Promise.all(members.map((member) => member.stop()));

    const heard = await whoHeardWhat(session);
    out.write('\n── who heard what (from the state each process saved in Redis)\n');
    for (const role of ROLES) out.write(`  ${role} heard: ${heard[role].join(', ')}\n`);
    const pids = Object.fromEntries(members.map((m) => [m.role, m.pid])) as Record<Role, number>;
    return { mode: choice.mode, redisUrl, pids, turns, heard };
  } finally {
    await Promise.all(members.map((member) => member.stop()));
    await Promise.all([hub.close(), session.close()]);
    await server?.stop();
  }
}

/** The replies the hub delivers, printed as they arrive, up to and including the writer's. */
function collectTurns(hub: RedisMsgHub, print: (msg: Msg) => void): Promise<Msg[]> {
  return firstValueFrom(
    hub.events.pipe(
      filter(
        (event): event is Extract<RedisHubEvent, { type: 'delivered' }> =>
          event.type === 'delivered',
      ),
      filter((event) => event.from !== ''),
      map((event) => {
        print(event.msg);
        return event.msg;
      }),
      takeWhile((msg) => msg.name !== 'writer', true),
      toArray(),
    ),
  );
}

async function whoHeardWhat(session: RedisSession): Promise<Record<Role, string[]>> {
  const heard = {} as Record<Role, string[]>;
  for (const role of ROLES) {
    const state = await session.load(role);
    const agent = createMember(role, chooseModel(SCRIPTS[role], {}).model);
    if (state) agent.loadStateDict(state);
    heard[role] = agent.memory
      .messages()
      .filter((msg) => msg.name !== role && msg.role !== 'tool')
      .map((msg) => msg.name);
  }
  return heard;
}

runMain(import.meta.url, main);
