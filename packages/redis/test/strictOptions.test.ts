import { EchoAgent } from '@rxagent/core/testing';
import { RedisInterrupts, RedisMsgHub, RedisSession } from '@rxagent/redis';
import { startRedisServer } from '@rxagent/redis/testing';
import { describe, expect, it } from 'vitest';

describe('options objects of redis reject unknown keys, before any connection', () => {
  it.each([
    [
      'RedisSession',
      () => new RedisSession({ urll: 'redis://127.0.0.1:1' } as never),
      /^RedisSession: unknown option "urll" \(did you mean "url"\?\)/,
    ],
    [
      'RedisMsgHub',
      () =>
        new RedisMsgHub({
          topic: 't',
          participants: [new EchoAgent({ name: 'a' })],
          blockMS: 5,
        } as never),
      /^RedisMsgHub: unknown option "blockMS" \(did you mean "blockMs"\?\)/,
    ],
    [
      'RedisInterrupts',
      () => new RedisInterrupts({ prefx: 'p:' } as never),
      /^RedisInterrupts: unknown option "prefx" \(did you mean "prefix"\?\)/,
    ],
  ])('%s', (_, make, message) => {
    expect(make).toThrow(TypeError);
    expect(make).toThrow(message);
  });

  it('RedisSession.save() options and startRedisServer()', async () => {
    const session = new RedisSession({ url: 'redis://127.0.0.1:1', commandTimeoutMs: 50 });
    await expect(session.save('k', {}, { expectedversion: 1 } as never)).rejects.toThrow(
      /RedisSession\.save\(\): unknown option "expectedversion" \(did you mean "expectedVersion"\?\)/,
    );
    await session.close();
    await expect(startRedisServer({ appendonly: true } as never)).rejects.toThrow(
      /did you mean "appendOnly"/,
    );
  });
});
