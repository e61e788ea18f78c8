import { InvalidArgumentError, userMsg } from '@rxagent/core';
import { EchoAgent } from '@rxagent/core/testing';
import { createClient } from 'redis';
import { lastValueFrom, type Observable, throwError } from 'rxjs';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { describeRedis } from '../../test/describeRedis.js';
import { deliveredText, nextDeliveries, nextError, texts } from '../../test/hubEvents.js';
import { type RedisServer, startRedisServer } from '../testing/redisServer.js';
import { RedisMsgHub } from './redisMsgHub.js';
import type { RedisMsgHubOptions } from './redisMsgHubOptions.js';

describeRedis('RedisMsgHub', () => {
  let server: RedisServer;
  let hubs: RedisMsgHub[] = [];
  let topicCount = 0;
  let topic = '';
  const hub = (options: Omit<RedisMsgHubOptions, 'topic'> & { topic?: string }): RedisMsgHub => {
    const created = new RedisMsgHub({ url: server.url, topic, blockMs: 200, ...options });
    hubs.push(created);
    return created;
  };
  const echo = (name: string): EchoAgent => new EchoAgent({ name, prefix: `${name}:` });

  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterEach(async () => {
    await Promise.all(hubs.map((h) => h.close()));
    hubs = [];
    topic = `topic-${++topicCount}`;
  });
  afterAll(async () => {
    await server?.stop();
  });
  topic = `topic-${topicCount}`;

  it('delivers a reply to every other participant in every process, never back to its sender', async () => {
    const [alice, bob, carol] = [echo('alice'), echo('bob'), echo('carol')];
    const one = hub({ participants: [alice, bob] });
    const two = hub({ participants: [carol] });
    await lastValueFrom(one.enter());
    await lastValueFrom(two.enter());
    const atOne = nextDeliveries(one, 1);
    const atTwo = nextDeliveries(two, 1);
    const reply = await lastValueFrom(alice.call(userMsg('hi')));
    expect(texts([reply])).toEqual(['alice:hi']);
    const [first] = await atOne;
    expect(first).toMatchObject({ from: 'alice', to: ['bob'] });
    expect((await atTwo)[0]).toMatchObject({ id: first?.id, from: 'alice', to: ['carol'] });
    expect(texts(bob.observed)).toEqual(['alice:hi']);
    expect(texts(carol.observed)).toEqual(['alice:hi']);
    expect(alice.observed).toEqual([]);
  });

  it('has every process deliver the entries in the same stream order, once each', async () => {
    const agents = ['a', 'b', 'c'].map(echo);
    const [a, b, c] = agents as [EchoAgent, EchoAgent, EchoAgent];
    const listenerA = echo('listener-a');
    const listenerB = echo('listener-b');
    const one = hub({ participants: [a, listenerA] });
    const two = hub({ participants: [b, c, listenerB] });
    await lastValueFrom(one.enter());
    await lastValueFrom(two.enter());
    const all = nextDeliveries(two, 30);
    const allOne = nextDeliveries(one, 30);
    await Promise.all(
      [a, b, c].map(async (agent) => {
        for (let i = 0; i < 10; i++) await lastValueFrom(agent.call(userMsg(String(i))));
      }),
    );
    const ids = (await all).map((event) => event.id);
    expect((await allOne).map((event) => event.id)).toEqual(ids);
    expect(new Set(ids).size).toBe(30);
    expect(texts(listenerA.observed)).toEqual(texts(listenerB.observed));
    expect(listenerA.observed).toHaveLength(30);
    expect(a.observed).toHaveLength(20);
    expect(texts(a.observed).some((text) => text.startsWith('a:'))).toBe(false);
  });

  it('appends the announcement on enter and broadcasts a message to every participant', async () => {
    const [alice, bob] = [echo('alice'), echo('bob')];
    const two = hub({ participants: [bob] });
    await lastValueFrom(two.enter());
    const heard = nextDeliveries(two, 2);
    const one = hub({ participants: [alice], announcement: userMsg('welcome') });
    const heardAtOne = nextDeliveries(one, 2);
    await lastValueFrom(one.enter());
    await lastValueFrom(one.broadcast(userMsg('news')));
    await heard;
    await heardAtOne;
    expect(texts(bob.observed)).toEqual(['welcome', 'news']);
    expect(texts(alice.observed)).toEqual(['welcome', 'news']);
  });

  it('starts one reader when entered twice at once, so each entry is delivered once', async () => {
    const [alice, bob] = [echo('alice'), echo('bob')];
    const one = hub({ participants: [alice] });
    const two = hub({ participants: [bob] });
    await lastValueFrom(one.enter());
    await Promise.all([lastValueFrom(two.enter()), lastValueFrom(two.enter())]);
    const heard = nextDeliveries(two, 2);
    await lastValueFrom(alice.call(userMsg('1')));
    await lastValueFrom(one.broadcast(userMsg('end')));
    await heard;
    expect(texts(bob.observed)).toEqual(['alice:1', 'end']);
  });

  it('resumes after the last delivered entry when entered again, with no duplicate and no gap', async () => {
    const [alice, bob] = [echo('alice'), echo('bob')];
    const one = hub({ participants: [alice] });
    const two = hub({ participants: [bob] });
    await lastValueFrom(one.enter());
    await lastValueFrom(two.enter());
    const first = nextDeliveries(two, 1);
    await lastValueFrom(alice.call(userMsg('1')));
    await first;
    two.exit();
    await lastValueFrom(alice.call(userMsg('2')));
    await lastValueFrom(alice.call(userMsg('3')));
    expect(texts(bob.observed)).toEqual(['alice:1']);
    const rest = nextDeliveries(two, 2);
    await lastValueFrom(two.enter());
    await rest;
    expect(texts(bob.observed)).toEqual(['alice:1', 'alice:2', 'alice:3']);
  });

  it('resumes from the position stored under its consumer name in a new hub (a restarted process)', async () => {
    const alice = echo('alice');
    const one = hub({ participants: [alice] });
    await lastValueFrom(one.enter());
    const before = echo('bob');
    const first = hub({ participants: [before], consumer: 'bob-process' });
    await lastValueFrom(first.enter());
    const heard = nextDeliveries(first, 1);
    await lastValueFrom(alice.call(userMsg('1')));
    await heard;
    await first.close();
    await lastValueFrom(alice.call(userMsg('2')));
    const after = echo('bob');
    const second = hub({ participants: [after], consumer: 'bob-process' });
    const resumed = nextDeliveries(second, 1);
    await lastValueFrom(second.enter());
    await resumed;
    expect(texts(before.observed)).toEqual(['alice:1']);
    expect(texts(after.observed)).toEqual(['alice:2']);
  });

  it("starts at the stream's end for a new consumer with startAt 'end'", async () => {
    const alice = echo('alice');
    const one = hub({ participants: [alice] });
    await lastValueFrom(one.enter());
    await lastValueFrom(alice.call(userMsg('old')));
    const late = echo('late');
    const two = hub({ participants: [late], startAt: 'end' });
    await lastValueFrom(two.enter());
    const heard = nextDeliveries(two, 1);
    await lastValueFrom(alice.call(userMsg('new')));
    await heard;
    expect(texts(late.observed)).toEqual(['alice:new']);
  });

  it('skips a foreign entry of the stream, reporting it, and goes on', async () => {
    const bob = echo('bob');
    const two = hub({ participants: [bob] });
    await lastValueFrom(two.enter());
    const error = nextError(two);
    const heard = deliveredText(two, 'after');
    const client = createClient({ url: server.url });
    await client.connect();
    await client.xAdd(topic, '*', { something: 'else' });
    client.destroy();
    await lastValueFrom(two.broadcast(userMsg('after')));
    expect(await error).toBeInstanceOf(InvalidArgumentError);
    expect(String(await error)).toMatch(/was skipped: it has format null/);
    await heard;
    expect(texts(bob.observed)).toEqual(['after']);
  });

  it("reports a participant's failing observe and still delivers to the others, once", async () => {
    const boom = new Error('observe failed');
    const grumpy = new (class extends EchoAgent {
      protected override doObserve(): Observable<void> {
        return throwError(() => boom);
      }
    })({ name: 'grumpy' });
    const bob = echo('bob');
    const two = hub({ participants: [grumpy, bob] });
    await lastValueFrom(two.enter());
    const error = nextError(two);
    const heard = nextDeliveries(two, 2);
    await lastValueFrom(two.broadcast([userMsg('one'), userMsg('two')]));
    expect(await error).toBe(boom);
    expect((await heard).map((event) => event.to)).toEqual([['bob'], ['bob']]);
    expect(texts(bob.observed)).toEqual(['one', 'two']);
  });

  it('stops appending and delivering for a deleted participant', async () => {
    const [alice, bob, carol] = [echo('alice'), echo('bob'), echo('carol')];
    const one = hub({ participants: [alice, bob] });
    const two = hub({ participants: [carol] });
    await lastValueFrom(one.enter());
    await lastValueFrom(two.enter());
    one.delete(bob);
    await lastValueFrom(bob.call(userMsg('private')));
    const heard = nextDeliveries(one, 1);
    await lastValueFrom(two.broadcast(userMsg('public')));
    await heard;
    expect(texts(alice.observed)).toEqual(['public']);
    expect(bob.observed).toEqual([]);
  });

  it('rejects bad options and agents with the same name', async () => {
    expect(() => new RedisMsgHub({ topic: '', participants: [] })).toThrow(InvalidArgumentError);
    expect(() => new RedisMsgHub({ topic: 't', participants: [echo('x'), echo('x')] })).toThrow(
      /two participants are named "x"/,
    );
    expect(() => new RedisMsgHub({ topic: 't', participants: [] })).toThrow(/consumer/);
    expect(
      () => new RedisMsgHub({ topic: 't', participants: [echo('y')], startAt: 'now' as never }),
    ).toThrow(/startAt must be/);
    expect(() => new RedisMsgHub({ topic: 't', participants: [echo('y')], blockMs: 0 })).toThrow(
      /blockMs/,
    );
    const h = new RedisMsgHub({ topic: 't', participants: [echo('x')] });
    expect(() => h.add(echo('x'))).toThrow(InvalidArgumentError);
    await expect(lastValueFrom(h.broadcast({} as never))).rejects.toThrow(InvalidArgumentError);
  });
});
