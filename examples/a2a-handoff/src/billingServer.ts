/**
 * The billing agent's process: a ReActAgent served over A2A by `a2aHandler`, one agent per
 * A2A context. Prints `listening <url>` once it accepts requests; ends on SIGTERM.
 *
 *   npx tsx --conditions=@rxagent/source src/billingServer.ts [port]
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { a2aHandler } from '@rxagent/a2a';
import type { ScriptedReply } from '@rxagent/core/testing';
import { chooseModel, isEntryPoint } from '@rxagent/example-kit';
import { ReActAgent } from '@rxagent/react-agent';

/**
 * What the billing agent answers offline: the refund when the conversation it was handed
 * (the last message of its request) names the order, else a question.
 */
export function billingScript(): ScriptedReply[] {
  return [
    (request) =>
      JSON.stringify(request.messages.at(-1)).includes('order 1042')
        ? 'I see you were charged twice for order 1042: I have refunded the second charge of 39.90 EUR; it reaches your card within 5 days.'
        : 'Which order is it about?',
  ];
}

/** Starts the billing A2A server on `port` (0: any free port) of the loopback interface. */
export async function startBillingServer(
  port = 0,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ url: string; server: Server }> {
  const handler = a2aHandler(
    () =>
      new ReActAgent({
        name: 'billing',
        description: 'Invoices, charges and refunds.',
        sysPrompt:
          'You are the billing desk. Read the conversation and settle the billing problem.',
        model: chooseModel(billingScript, env).model,
      }),
    { card: { name: 'billing', description: 'Invoices, charges and refunds.' } },
  );
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${bound}`, server };
}

if (isEntryPoint(import.meta.url)) {
  const { url, server } = await startBillingServer(Number(process.argv[2] ?? 0));
  process.stdout.write(`listening ${url}\n`);
  process.once('SIGTERM', () => server.close());
}
