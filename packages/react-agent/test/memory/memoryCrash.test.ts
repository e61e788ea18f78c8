// SqliteStore by a relative import: this package does not depend on @rxagent/sqlite (whose
// tests depend on it), so the workspace has no cycle.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type StrictOpenAIServer, startStrictOpenAIServer } from '@rxagent/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { runTsToEnd, type TsRun } from '../../../../scripts/testing/tsProcess.js';
import { SqliteSession, SqliteStore } from '../../../sqlite/src/index.js';

const childFile = fileURLToPath(new URL('./memoryCrashChild.ts', import.meta.url));

let server: StrictOpenAIServer | undefined;
let dir: string | undefined;
afterAll(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function runChild(env: Record<string, string>): Promise<Omit<TsRun, 'stdout'>> {
  const { killed, lines } = await runTsToEnd(childFile, env);
  return { killed, lines };
}

describe('a durable agent with long-term memory killed between its reply and its memory write', {
  timeout: 120_000,
}, () => {
  it('writes the facts after recover() in a fresh process, with no second model request', async () => {
    server = await startStrictOpenAIServer({ script: ['Noted, enjoy Berlin!'] });
    dir = await mkdtemp(join(tmpdir(), 'rxagent-memory-crash-'));
    const env = {
      BASE_URL: server.baseURL,
      STORE_PATH: join(dir, 'memory.db'),
      SESSION_PATH: join(dir, 'sessions.db'),
    };
    const first = await runChild({ ...env, KILL_AT: 'put' });
    expect(first.killed).toBe(true);
    expect(first.lines).toEqual([
      'reply [{"type":"text","text":"Noted, enjoy Berlin!"}]',
      'killing before the write',
    ]);
    const facts = async () => {
      const store = new SqliteStore({ path: env.STORE_PATH });
      try {
        return (await store.search(['users', 'alice'], { query: 'Berlin' })).map(
          (item) => item.value['text'],
        );
      } finally {
        store.close();
      }
    };
    expect(await facts()).toEqual([]);
    // The finished call's checkpoint holds the unwritten facts.
    const session = new SqliteSession({ path: env.SESSION_PATH });
    const saved = JSON.stringify(await session.load('alice'));
    session.close();
    expect(saved).toContain('Alice moves to Berlin in May.');
    const second = await runChild({ ...env, MODE: 'recover' });
    expect(second).toEqual({ killed: false, lines: ['done'] });
    expect(await facts()).toEqual(['Alice moves to Berlin in May.']);
    expect(server.requests).toHaveLength(1);
    expect(server.rejected).toEqual([]);
  });
});
