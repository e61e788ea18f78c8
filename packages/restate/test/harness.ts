import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type StrictOpenAIServer, startStrictOpenAIServer } from '@rxagent/core/testing';
import {
  freePort,
  type RestateServer,
  restateServerBinary,
  startRestateServer,
} from '@rxagent/restate/testing';
import { describe } from 'vitest';
import { runTs, type TsProcess } from '../../../scripts/testing/tsProcess.js';

const endpointFile = fileURLToPath(new URL('./fixtures/endpoint.ts', import.meta.url));

/**
 * `describe` for tests that need `restate-server`: skipped with a note when the binary is
 * missing, except under `CI=true`, where that is a failure (the package's devDependencies
 * install it).
 */
export function describeRestate(name: string, body: () => void): void {
  if (restateServerBinary() !== undefined) {
    describe(name, body);
    return;
  }
  if (process.env['CI'] === 'true')
    throw new Error('restate-server is not installed, but CI=true needs it.');
  console.warn(`skipping "${name}": restate-server not found (npm i @restatedev/restate-server)`);
  describe.skip(name, body);
}

/** A restate-server, a strict OpenAI server and the endpoint process, registered. */
export interface Harness {
  readonly restate: RestateServer;
  readonly openai: StrictOpenAIServer;
  readonly dir: string;
  endpoint: TsProcess;
  /** Kills the endpoint with SIGKILL. */
  killEndpoint(): Promise<void>;
  /** Starts the endpoint again on the same port. */
  startEndpoint(): Promise<void>;
  /** Lines of a side-channel file the endpoint's tools write. */
  lines(file: string): string[];
  stop(): Promise<void>;
}

/** Starts everything; the endpoint is registered with the server through the admin API. */
export async function startHarness(): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'rxagent-restate-test-'));
  const openai = await startStrictOpenAIServer();
  const restate = await startRestateServer();
  const port = await freePort();
  const launch = async (): Promise<TsProcess> => {
    const process = runTs(endpointFile, [String(port), dir, openai.baseURL]);
    await process.waitFor('ENDPOINT READY');
    return process;
  };
  const harness: Harness = {
    restate,
    openai,
    dir,
    endpoint: await launch(),
    async killEndpoint() {
      await harness.endpoint.kill('SIGKILL');
    },
    async startEndpoint() {
      harness.endpoint = await launch();
    },
    lines(file) {
      try {
        return readFileSync(join(dir, file), 'utf8').split('\n').filter(Boolean);
      } catch {
        return [];
      }
    },
    async stop() {
      await harness.endpoint.kill('SIGKILL');
      await Promise.all([restate.stop(), openai.close()]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await restate.register(`http://127.0.0.1:${port}`);
  return harness;
}
