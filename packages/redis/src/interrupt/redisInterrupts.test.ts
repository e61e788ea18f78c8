import { InvalidArgumentError, StoreUnavailableError, textOf, userMsg } from '@rxagent/core';
import { createClient } from 'redis';
import { lastValueFrom } from 'rxjs';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { describeRedis } from '../../test/describeRedis.js';
import { LongJobAgent } from '../../test/longJobAgent.js';
import { type RedisServer, startRedisServer } from '../testing/redisServer.js';
import { RedisInterrupts } from './redisInterrupts.js';

describeRedis('RedisInterrupts', () => {
  let server: RedisServer;
  let opened: RedisInterrupts[] = [];
  const open = (): RedisInterrupts => {
    const interrupts = new RedisInterrupts({ url: server.url });
    opened.push(interrupts);
    return interrupts;
  };

  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterEach(async () => {
    await Promise.all(opened.map((interrupts) => interrupts.close()));
    opened = [];
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("interrupts an attached agent's running call from another connection within milliseconds", async () => {
    const agent = new LongJobAgent({ name: 'worker' });
    await open().attach(agent, 'run-1');
    const reply = lastValueFrom(agent.call(userMsg('long job')));
    const started = performance.now();
    expect(await open().interrupt('run-1', userMsg('stop now'))).toBe(1);
    const final = await reply;
    const elapsed = performance.now() - started;
    expect(final.metadata).toMatchObject({ interrupted: true, generateReason: 'interrupted' });
    expect(textOf(final)).toBe('I was interrupted. What would you like me to do next?');
    expect(agent.signals[0]?.aborted).toBe(true);
    expect(elapsed).toBeLessThan(200);
  });

  it('interrupts without a message, and every agent attached under one key', async () => {
    const [a, b] = [new LongJobAgent({ name: 'a' }), new LongJobAgent({ name: 'b' })];
    const local = open();
    await local.attach(a, 'shared');
    await local.attach(b, 'shared');
    const replies = Promise.all([
      lastValueFrom(a.call(userMsg('x'))),
      lastValueFrom(b.call(userMsg('y'))),
    ]);
    expect(await open().interrupt('shared')).toBe(1);
    for (const reply of await replies) {
      expect(reply.metadata['interrupted']).toBe(true);
      expect(textOf(reply)).toBe('I noticed that you interrupted me. What can I do for you?');
    }
  });

  it('stops interrupting an agent once detached', async () => {
    const agent = new LongJobAgent({ name: 'worker' });
    const detach = await open().attach(agent, 'run-2');
    await detach();
    await detach();
    const reply = lastValueFrom(agent.call(userMsg('job')));
    expect(await open().interrupt('run-2')).toBe(0);
    agent.finish('done');
    expect((await reply).metadata['interrupted']).toBeUndefined();
  });

  it('treats a payload that is not a Msg as an interrupt without a message', async () => {
    const agent = new LongJobAgent({ name: 'worker' });
    const interrupts = open();
    await interrupts.attach(agent, 'run-3');
    const reply = lastValueFrom(agent.call(userMsg('job')));
    const client = createClient({ url: server.url });
    await client.connect();
    await client.publish(`${interrupts.prefix}run-3`, '{"message":{"__proto__":{"x":1}}');
    client.destroy();
    expect(textOf(await reply)).toBe('I noticed that you interrupted me. What can I do for you?');
  });

  it('rejects bad arguments, and a Redis it cannot reach within the bounded wait', async () => {
    const interrupts = open();
    const agent = new LongJobAgent({ name: 'worker' });
    await expect(interrupts.attach({} as never, 'k')).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(interrupts.attach(agent, '')).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(interrupts.interrupt('k', { nope: true } as never)).rejects.toBeInstanceOf(
      InvalidArgumentError,
    );
    const nowhere = new RedisInterrupts({ url: 'redis://127.0.0.1:1', commandTimeoutMs: 200 });
    opened.push(nowhere);
    await expect(nowhere.interrupt('k')).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(nowhere.attach(agent, 'k')).rejects.toBeInstanceOf(StoreUnavailableError);
  });
});
