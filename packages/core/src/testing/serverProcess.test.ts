import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort, stopProcess } from './serverProcess.js';

describe('freePort', () => {
  it('answers a loopback port a server can listen on', async () => {
    const port = await freePort();
    expect(port).toBeGreaterThan(0);
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    await new Promise((resolve) => server.close(resolve));
  });
});

describe('stopProcess', { timeout: 30_000 }, () => {
  it('sends the signal, and SIGKILL when the process ignores it', async () => {
    // A child that ignores SIGTERM, and says so once its handler is in place.
    const child = spawn(
      process.execPath,
      ['-e', "process.on('SIGTERM', () => {}); console.log('ready'); setInterval(() => {}, 1000);"],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    await new Promise((resolve) => child.stdout.once('data', resolve));
    await stopProcess(child, 'SIGTERM', 300);
    expect(child.signalCode).toBe('SIGKILL');
    // Stopping a process that already exited resolves at once.
    await stopProcess(child);
  });

  it('resolves when the process exits on the signal, without forcing it', async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000);'], {
      stdio: 'ignore',
    });
    await stopProcess(child, 'SIGTERM', 20_000);
    expect(child.signalCode).toBe('SIGTERM');
  });
});
