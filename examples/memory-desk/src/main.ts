// A support desk that remembers a customer across conversations, on SQLite: the first
// conversation states a fact, the second — a new agent, a new conversation — recalls it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { textOf } from '@rxagent/core';
import { SqliteStore } from '@rxagent/sqlite';
import { deskAgent, deskMemory } from './desk.js';

const dir = mkdtempSync(join(tmpdir(), 'memory-desk-'));
const store = new SqliteStore({ path: join(dir, 'memory.db') });
try {
  const memory = deskMemory(store);
  const who = { callContext: { customerId: 'ada' } };
  const first = await deskAgent(memory).reply('[day 1] Hi! My city is Lisbon.', who);
  console.log(`conversation 1 → ${textOf(first)}`);
  await memory.settled();
  const second = await deskAgent(memory).reply('Remind me, what is my city these days?', who);
  console.log(`conversation 2 → ${textOf(second)}`);
  const other = await deskAgent(memory).reply('Remind me, what is my city these days?', {
    callContext: { customerId: 'bob' },
  });
  console.log(`another customer → ${textOf(other)}`);
} finally {
  store.close();
  rmSync(dir, { recursive: true, force: true });
}
