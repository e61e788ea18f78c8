import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const fixture = fileURLToPath(new URL('./fixtures/sessionProcess.ts', import.meta.url));

/** Runs the session fixture in a new Node process with `env`; resolves its stdout. */
export function runSessionProcess(env: Record<string, string>): Promise<string> {
  const child = spawn(
    process.execPath,
    ['--conditions=@rxagent/source', '--import', 'tsx', fixture],
    {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (part: Buffer) => {
    stdout += part.toString();
  });
  child.stderr.on('data', (part: Buffer) => {
    stderr += part.toString();
  });
  return new Promise((resolve, reject) => {
    child.on('close', (code) => {
      if (code === 0) resolve(stdout);
      else reject(new Error(`session process exited with ${String(code)}: ${stderr.slice(-3000)}`));
    });
  });
}
