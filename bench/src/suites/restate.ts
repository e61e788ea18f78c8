import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { textOf } from '@rxagent/core';
import { RestateAgent } from '@rxagent/restate';
import { freePort, startRestateServer } from '@rxagent/restate/testing';
import type { BenchConfig } from '../lib/config.js';
import { row, type SuiteResult } from '../lib/result.js';
import { benchAgent } from './restateAgents.js';

const bench = fileURLToPath(new URL('../../', import.meta.url));
const peerScript = fileURLToPath(new URL('./restatePeer.ts', import.meta.url));
const ROUNDS = 4;

/**
 * The restate-server binary, resolved from the bench's own dependencies (the built
 * `@rxagent/restate` lives where the npm package is not linked).
 */
function serverBinary(): string {
  const require = createRequire(import.meta.url);
  const server = require.resolve('@restatedev/restate-server/package.json');
  const platform = `@restatedev/restate-server-${process.platform}-${process.arch}/package.json`;
  return join(dirname(createRequire(server).resolve(platform)), 'bin', 'restate-server');
}

/** Starts the endpoint, on the sources when this process runs on them, else on the builds. */
function startPeer(port: number): { ready: Promise<void>; kill(): Promise<void> } {
  const source = process.execArgv.some((arg) => arg.includes('@rxagent/source'));
  const loader = source
    ? ['--conditions=@rxagent/source', '--import', 'tsx']
    : ['--import', 'tsx', '--import', './src/build/register.mjs'];
  const child: ChildProcess = spawn(process.execPath, [...loader, peerScript, String(port)], {
    cwd: bench,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line === 'ready') resolve();
    });
    void exited.then(() => reject(new Error('the Restate endpoint exited before it was ready')));
  });
  return {
    ready,
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Wall ms of each of `count` calls, one after another, after `warm` unmeasured ones. */
async function latencies(count: number, warm: number, call: () => Promise<unknown>) {
  for (let i = 0; i < warm; i++) await call();
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await call();
    out.push(performance.now() - t0);
  }
  return out;
}

/** The median of `values`. */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/**
 * The `restate` suite (opt-in: it starts restate-server from the npm package): the same
 * agent called in process and as a Restate virtual object through the ingress, on loopback,
 * with no tool and with four tool rounds (a model request and a non-idempotent tool run
 * each), so the difference per round is what the engine adds per step.
 */
export async function restate(config: BenchConfig): Promise<SuiteResult> {
  const count = config.quick ? 20 : 100;
  const server = await startRestateServer({ binary: serverBinary() });
  const port = await freePort();
  const peer = startPeer(port);
  try {
    await peer.ready;
    await server.register(`http://127.0.0.1:${port}`);
    const local = async (rounds: number) => {
      const reply = await benchAgent(rounds).reply('go');
      if (textOf(reply) !== 'ok') throw new Error(`in process: ${textOf(reply)}`);
    };
    let key = 0;
    const remote = (service: string) => async () => {
      // A fresh key per call: one short conversation each, as in process.
      const agent = new RestateAgent({
        name: 'bench',
        ingressUrl: server.ingressUrl,
        service,
        key: `k${key++}`,
      });
      const reply = await agent.reply('go');
      if (textOf(reply) !== 'ok') throw new Error(`on Restate: ${textOf(reply)}`);
    };
    const inPlain = await latencies(count, 20, () => local(0));
    const inTools = await latencies(count, 20, () => local(ROUNDS));
    const rsPlain = await latencies(count, 20, remote('plain'));
    const rsTools = await latencies(count, 20, remote('tools'));
    const perRound = (tools: number[], plain: number[]) =>
      tools.map((t, i) => (t - (plain[i] ?? median(plain))) / ROUNDS);
    return {
      id: 'restate',
      title: `Restate: the same agent in process and as a virtual object (${count} calls each, loopback)`,
      rows: [
        row('in process: call, no tool', 'ms', inPlain),
        row(`in process: call, ${ROUNDS} tool rounds`, 'ms', inTools),
        row('Restate: call, no tool', 'ms', rsPlain),
        row(`Restate: call, ${ROUNDS} tool rounds`, 'ms', rsTools),
        row('in process: per tool round', 'ms', perRound(inTools, inPlain)),
        row('Restate: per tool round (model step + tool step)', 'ms', perRound(rsTools, rsPlain)),
      ],
      budgets: [],
      details: {
        journalStepsPerCall: { noTool: 1 + 1, toolRounds: ROUNDS * 3 + 1 + 1 },
        stepsPerRound: { model: 1, toolNotIdempotent: 2, toolIdempotent: 1 },
      },
    };
  } finally {
    await peer.kill();
    await server.stop();
  }
}
