import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { textOf, unfinishedRuns } from '@rxagent/core';
import { SqliteSession } from '@rxagent/sqlite';
import { lastValueFrom } from 'rxjs';
import { type CheckoutStore, checkoutAgent, checkoutSession } from './checkoutAgent.js';

/**
 * Runs the checkout in a child process that SIGKILLs itself inside `ship_order`, then
 * recovers the run in this process: `unfinishedRuns` finds it, `recover()` continues it
 * without asking the model again for what it already answered or charging twice. `store`:
 * the checkpoints in JSON files (the default) or in one SQLite file (`--sqlite`).
 */
export async function main(
  dir?: string,
  write: (line: string) => void = console.log,
  store: CheckoutStore = 'json',
): Promise<string> {
  const sessions = dir ?? (await mkdtemp(join(tmpdir(), 'durable-checkout-')));
  const ledger = join(sessions, 'ledger.txt');
  const self = fileURLToPath(import.meta.url);
  const args = ['--conditions=@rxagent/source', '--import', 'tsx', self];
  const child = spawnSync(process.execPath, args, {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    env: { ...process.env, CHECKOUT_CHILD: sessions, CHECKOUT_STORE: store },
    stdio: 'inherit',
  });
  write(`the first process died: ${child.signal ?? `exit ${String(child.status)}`}`);
  const session = checkoutSession(sessions, store);
  const pending = await unfinishedRuns(session);
  write(`unfinished runs: ${pending.join(', ')}`);
  const agent = checkoutAgent(session, ledger, () => undefined);
  const reply = await lastValueFrom(agent.recover(), { defaultValue: undefined });
  if (session instanceof SqliteSession) await session.close();
  const answer = reply ? textOf(reply) : '(nothing to recover)';
  write(`recovered reply: ${answer}`);
  write(`ledger:\n${await readFile(ledger, 'utf8')}`);
  return answer;
}

const childDir = process.env['CHECKOUT_CHILD'];
if (childDir) {
  const store = process.env['CHECKOUT_STORE'] === 'sqlite' ? 'sqlite' : 'json';
  const session = checkoutSession(childDir, store);
  const agent = checkoutAgent(session, join(childDir, 'ledger.txt'), () =>
    process.kill(process.pid, 'SIGKILL'),
  );
  await agent.reply('Check out my basket, please.');
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await main(undefined, console.log, process.argv.includes('--sqlite') ? 'sqlite' : 'json');
}
