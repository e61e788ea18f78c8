import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Msg, textOf } from '@rxagent/core';
import { chooseModel, type ExampleOptions, runMain } from '@rxagent/example-kit';
import { RestateAgent } from '@rxagent/restate';
import { freePort, type RestateServer, startRestateServer } from '@rxagent/restate/testing';
import { FOLLOW_UP, KEY, REQUEST } from './deskAgent.js';
import { type EndpointProcess, startEndpoint } from './endpointProcess.js';

/** What a run produced, for tests and callers. */
export interface RestateAgentResult {
  readonly mode: 'offline' | 'live';
  /** The reply to the booking request (one, although its endpoint was killed mid-tool). */
  readonly reply: Msg;
  /** The reply to the follow-up question (the conversation lives in the object's state). */
  readonly followUp: Msg;
  /** How many times the booking tool ran (it is not idempotent: once). */
  readonly bookings: number;
}

/**
 * A private `restate-server` (from the npm package), an endpoint process serving the desk
 * agent as a virtual object, and a caller using `RestateAgent` through Restate's ingress.
 * When the booking tool starts, the endpoint is SIGKILLed and started again: Restate retries
 * the invocation, the journal replays the model's reply, and the booking, started without a
 * recorded result, is in doubt (not run again). The caller gets exactly one reply.
 */
export async function main(options: ExampleOptions = {}): Promise<RestateAgentResult> {
  const out = options.out ?? process.stdout;
  const env = options.env ?? process.env;
  const mode = chooseModel(() => [], env).mode;
  out.write(`${chooseModel(() => [], env).banner}\n`);
  const dir = mkdtempSync(join(tmpdir(), 'rxagent-restate-example-'));
  const ledger = join(dir, 'ledger.txt');
  let server: RestateServer | undefined;
  let endpoint: EndpointProcess | undefined;
  try {
    server = await startRestateServer();
    const port = await freePort();
    endpoint = startEndpoint(port, ledger, env);
    await endpoint.waitFor('ready');
    await server.register(`http://127.0.0.1:${port}`);
    out.write(
      `restate: ingress ${server.ingressUrl}, endpoint on port ${port} (process ${endpoint.pid})\n`,
    );
    const desk = new RestateAgent({
      name: 'desk',
      ingressUrl: server.ingressUrl,
      service: 'desk',
      key: KEY,
    });

    out.write(`\nuser: ${REQUEST}\n`);
    const pending = desk.reply(REQUEST);
    await endpoint.waitFor('tool started');
    await endpoint.kill('SIGKILL');
    out.write(`\n✗ endpoint ${endpoint.pid} was killed while book_room ran\n`);
    endpoint = startEndpoint(port, ledger, env);
    await endpoint.waitFor('ready');
    out.write(`  … started again (process ${endpoint.pid}); Restate retries the call\n`);
    const reply = await pending;
    out.write(`\ndesk: ${textOf(reply)}\n`);

    out.write(`\nuser: ${FOLLOW_UP}\n`);
    const followUp = await desk.reply(FOLLOW_UP);
    out.write(`desk: ${textOf(followUp)}\n`);
    const bookings = readFileSync(ledger, 'utf8').split('\n').filter(Boolean).length;
    out.write(`\nbook_room ran ${bookings} time(s)\n`);
    return { mode, reply, followUp, bookings };
  } finally {
    await endpoint?.kill('SIGKILL');
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

runMain(import.meta.url, main);
