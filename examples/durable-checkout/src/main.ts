import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { JsonFileSession, textOf, unfinishedRuns } from '@rxagent/core';
import { lastValueFrom } from 'rxjs';
import { checkoutAgent } from './checkoutAgent.js';

/**
 * Runs the checkout in a child process that SIGKILLs itself inside `ship_order`, then
 * recovers the run in this process: `unfinishedRuns` finds it, `recover()` continues it
 * without asking the model again for what it already answered or charging twice.
 */
export async function main(
  dir?: string,
  write: (line: string) => void = console.log,
): Promise<string> {
  const sessions = dir ?? (await mkdtemp(join(tmpdir(), 'durable-checkout-')));
  const ledger = join(sessions, 'ledger.txt');
  const self = fileURLToPath(import.meta.url);
  const args = ['--conditions=@rxagent/source', '--import', 'tsx', self];
  const child = spawnSync(process.execPath, args, {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    env: { ...process.env, CHECKOUT_CHILD: sessions },
    stdio: 'inherit',
  });
  write(`the first process died: ${child.signal ?? `exit ${String(child.status)}`}`);
  const session = new JsonFileSession(sessions);
  const pending = await unfinishedRuns(session);
  write(`unfinished runs: ${pending.join(', ')}`);
  const agent = checkoutAgent(sessions, ledger, () => undefined);
  const reply = await lastValueFrom(agent.recover(), { defaultValue: undefined });
  const answer = reply ? textOf(reply) : '(nothing to recover)';
  write(`recovered reply: ${answer}`);
  write(`ledger:\n${await readFile(ledger, 'utf8')}`);
  return answer;
}

const childDir = process.env['CHECKOUT_CHILD'];
if (childDir) {
  const agent = checkoutAgent(childDir, join(childDir, 'ledger.txt'), () =>
    process.kill(process.pid, 'SIGKILL'),
  );
  await agent.reply('Check out my basket, please.');
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await main();
}
