import { textOf } from '@rxagent/core';
import { captureOutput } from '@rxagent/example-kit';
import { PostgresSession } from '@rxagent/postgres';
import {
  POSTGRES_INSTALL_HINT,
  type PostgresServer,
  postgresServerAvailable,
  startPostgresServer,
} from '@rxagent/postgres/testing';
import { redisServerAvailable } from '@rxagent/redis/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main, type WorkerPoolResult } from '../src/main.js';

const available = postgresServerAvailable() && redisServerAvailable();
if (!available && process.env['CI'] === 'true') {
  throw new Error(`PostgreSQL and redis-server are needed under CI=true: ${POSTGRES_INSTALL_HINT}`);
}

describe.skipIf(!available)(
  'worker-pool example with its threads in PostgreSQL (DATABASE_URL)',
  () => {
    let postgres: PostgresServer | undefined;
    let result: WorkerPoolResult;
    let output: string;

    beforeAll(async () => {
      postgres = await startPostgresServer();
      const { out, text } = captureOutput();
      const env = { PATH: process.env['PATH'] ?? '', DATABASE_URL: postgres.connectionString };
      result = await main({ out, env });
      output = text();
    }, 150_000);
    afterAll(async () => {
      await postgres?.stop();
    }, 60_000);

    it("finishes the killed worker's run from the thread the workers kept in PostgreSQL", async () => {
      const survivor = result.workers.find((pid) => pid !== result.killed);
      expect(textOf(result.reply)).toBe(
        `Yes: Friday 9:40 Lisbon–Porto: 12 seats left (checked by worker ${survivor}).`,
      );
      expect(result.threads).toMatch(/^worker_pool_[0-9a-f]{8}$/);
      expect(output).toContain(`threads: PostgreSQL (DATABASE_URL), schema ${result.threads}`);
      const session = new PostgresSession({
        connectionString: postgres!.connectionString,
        schema: result.threads,
      });
      try {
        const keys = await session.list();
        expect(keys.length).toBeGreaterThan(0);
        const saved = JSON.stringify(await Promise.all(keys.map((key) => session.load(key))));
        expect(saved).toContain('12 seats left');
      } finally {
        await session.close();
      }
    });
  },
);
