import { textOf } from '@rxagent/core';
import { captureOutput } from '@rxagent/example-kit';
import { REDIS_INSTALL_HINT, redisServerAvailable } from '@rxagent/redis/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { main, type WorkerPoolResult } from '../src/main.js';

const available = redisServerAvailable();
if (!available && process.env['CI'] === 'true') {
  throw new Error(`redis-server is not installed, but CI=true needs it: ${REDIS_INSTALL_HINT}`);
}

describe.skipIf(!available)('worker-pool example (offline, two worker processes)', () => {
  let result: WorkerPoolResult;
  let output: string;

  beforeAll(async () => {
    const { out, text } = captureOutput();
    result = await main({ out, env: { PATH: process.env['PATH'] ?? '' } });
    output = text();
  }, 90_000);

  it('kills the worker running the call, and the other worker finishes it', () => {
    expect(output.split('\n')[0]).toMatch(/^mode: offline/);
    const survivor = result.workers.find((pid) => pid !== result.killed);
    expect(result.workers).toContain(result.killed);
    expect(textOf(result.reply)).toBe(
      `Yes: Friday 9:40 Lisbon–Porto: 12 seats left (checked by worker ${survivor}).`,
    );
    expect(output).toContain(`worker ${result.killed} was killed while it ran check_availability`);
  });
});
