import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { checkOptions, InvalidArgumentError } from '@rxagent/core';
import { freePort, stopProcess } from '@rxagent/core/testing';

/** How to install the server these helpers start, for skip and error messages. */
export const RESTATE_INSTALL_HINT = 'npm install --save-dev @restatedev/restate-server@1.7.12';

/** Options of `startRestateServer`. */
export interface RestateServerOptions {
  /** The `restate-server` binary (default: `restateServerBinary()`). */
  readonly binary?: string;
  /** How long to wait for the admin API to answer `/health` (default 30 s). */
  readonly startTimeoutMs?: number;
}

/** A `restate-server` child process on loopback ports, in its own temp base directory. */
export interface RestateServer {
  /** Where callers send invocations: `http://127.0.0.1:<port>`. */
  readonly ingressUrl: string;
  /** The admin API: `http://127.0.0.1:<port>`. */
  readonly adminUrl: string;
  /**
   * Registers the service endpoint at `endpointUrl` (`POST /deployments`, forced, so a
   * changed endpoint replaces the old one). Rejects with the admin API's answer when it
   * refuses (for example when the endpoint does not answer).
   */
  register(endpointUrl: string): Promise<void>;
  /** Stops the server (SIGTERM, then SIGKILL after 5 s) and deletes its directory. Idempotent. */
  stop(): Promise<void>;
}

/**
 * The path of the `restate-server` binary: `RESTATE_SERVER_BIN` when set, else the one the
 * npm package `@restatedev/restate-server` installed for this platform, else `undefined`.
 */
export function restateServerBinary(): string | undefined {
  const fromEnv = process.env['RESTATE_SERVER_BIN'];
  if (fromEnv !== undefined && fromEnv !== '') return existsSync(fromEnv) ? fromEnv : undefined;
  try {
    const require = createRequire(import.meta.url);
    const server = require.resolve('@restatedev/restate-server/package.json');
    const platform = `@restatedev/restate-server-${process.platform}-${process.arch}/package.json`;
    const manifest = createRequire(server).resolve(platform);
    const binary = join(dirname(manifest), 'bin', 'restate-server');
    return existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Starts a private `restate-server` with its ingress, admin and node ports on free 127.0.0.1
 * ports, a temp base directory and telemetry off. Resolves once the admin API is healthy;
 * rejects when there is no binary or it does not start in time (the process is killed).
 */
export async function startRestateServer(
  options: RestateServerOptions = {},
): Promise<RestateServer> {
  checkOptions(options, ['binary', 'startTimeoutMs'], 'startRestateServer');
  const binary = options.binary ?? restateServerBinary();
  if (binary === undefined) {
    throw new InvalidArgumentError(
      `startRestateServer: no restate-server binary found; install it (${RESTATE_INSTALL_HINT}) or set RESTATE_SERVER_BIN.`,
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'rxagent-restate-'));
  const [ingress, admin, node] = [await freePort(), await freePort(), await freePort()];
  const env = {
    ...process.env,
    RESTATE_BASE_DIR: dir,
    RESTATE_INGRESS__BIND_ADDRESS: `127.0.0.1:${ingress}`,
    RESTATE_ADMIN__BIND_ADDRESS: `127.0.0.1:${admin}`,
    RESTATE_BIND_ADDRESS: `127.0.0.1:${node}`,
    RESTATE_ADVERTISED_ADDRESS: `http://127.0.0.1:${node}`,
    RESTATE_DISABLE_TELEMETRY: 'true',
    RESTATE_LOG_FILTER: process.env['RESTATE_LOG_FILTER'] ?? 'warn',
  };
  const child = spawn(binary, [], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (data: Buffer): void => {
    output = (output + data.toString()).slice(-4_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const adminUrl = `http://127.0.0.1:${admin}`;
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await stopProcess(child);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitHealthy(`${adminUrl}/health`, child, options.startTimeoutMs ?? 30_000, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    ingressUrl: `http://127.0.0.1:${ingress}`,
    adminUrl,
    async register(endpointUrl: string) {
      const response = await fetch(`${adminUrl}/deployments`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ uri: endpointUrl, force: true }),
      });
      if (!response.ok) {
        throw new Error(
          `Registering ${endpointUrl} with restate-server failed (${response.status}): ${await response.text()}`,
        );
      }
    },
    stop,
  };
}

async function waitHealthy(
  url: string,
  child: ChildProcess,
  timeoutMs: number,
  output: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`restate-server exited before it was healthy:\n${output()}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`restate-server was not healthy within ${timeoutMs} ms:\n${output()}`);
}
