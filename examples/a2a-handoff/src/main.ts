/**
 * a2a-handoff: two processes, two agents, one conversation. The billing agent runs in its
 * own process, served over A2A (`a2aHandler`); this process runs a triage agent that hands
 * the conversation over to it through `A2AAgent`, inside a `handoffPipeline` — the same code
 * as for a local billing agent.
 *
 *   npx -y pnpm@10.34.9 --filter @rxagent/example-a2a-handoff start
 *
 * Offline (default) scripted models play both agents; with OPENAI_API_KEY or OPENAI_BASE_URL
 * set, real models do (the billing process gets the same environment). Set BILLING_A2A_URL
 * to hand off to an A2A agent that is already running instead of starting one.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { A2AAgent } from '@rxagent/a2a';
import { handoffPipeline, type Msg, textOf, userMsg } from '@rxagent/core';
import { chooseModel, type ExampleOptions, runMain } from '@rxagent/example-kit';
import { ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom } from 'rxjs';

export const QUESTION = 'I was charged twice for order 1042. Can I get my money back?';

/** What the triage agent does offline: it hands the conversation to billing. */
export function triageScript() {
  return [
    {
      toolCalls: [
        {
          id: 'handoff_1',
          name: 'transfer_to_billing',
          arguments: { reason: 'double charge on order 1042' },
        },
      ],
    },
  ];
}

/** Starts the billing server as a child process; resolves with its URL once it listens. */
export function spawnBilling(
  env: NodeJS.ProcessEnv,
): Promise<{ url: string; child: ChildProcess }> {
  const file = fileURLToPath(new URL('./billingServer.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@rxagent/source', file], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('listening ')) resolve({ url: line.slice('listening '.length), child });
    });
    child.once('exit', (code) =>
      reject(new Error(`the billing server exited (${code}) before listening`)),
    );
  });
}

/** Runs the conversation; resolves with the last reply (its `metadata.handoffPath` says who answered). */
export async function main(options: ExampleOptions = {}): Promise<Msg> {
  const out = options.out ?? process.stdout;
  const env = options.env ?? process.env;
  const given = env['BILLING_A2A_URL'];
  const billingProcess = given === undefined ? await spawnBilling(env) : undefined;
  const url = given ?? billingProcess!.url;
  try {
    const { model, banner } = chooseModel(triageScript, env);
    out.write(`${banner}\nbilling: A2A agent at ${url}\n\nuser: ${QUESTION}\n`);
    const billing = new A2AAgent({
      url,
      name: 'billing',
      description: 'Invoices, charges and refunds.',
    });
    const triage = new ReActAgent({
      name: 'triage',
      sysPrompt: 'You are the front desk. Hand billing questions to billing.',
      model,
      handoffs: [billing],
    });
    const reply = await lastValueFrom(handoffPipeline([triage, billing], userMsg(QUESTION)));
    const path = reply.metadata['handoffPath'];
    out.write(
      `${reply.name}: ${textOf(reply)}\n\npath: ${Array.isArray(path) ? path.join(' → ') : ''}\n`,
    );
    return reply;
  } finally {
    billingProcess?.child.kill('SIGTERM');
  }
}

runMain(import.meta.url, main);
