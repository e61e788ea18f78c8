#!/usr/bin/env node
// The rxagent-eval command. A TypeScript eval module loads when tsx is installed (its loader
// is registered first); in the rxagent workspace, run with --conditions=@rxagent/source and
// --import tsx to use the sources instead of dist/.
const conditions = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ');
const fromSource = conditions.includes('@rxagent/source');
if (!fromSource) {
  try {
    const { register } = await import('tsx/esm/api');
    register();
  } catch {
    // No tsx: JavaScript eval modules still work.
  }
}
const { runCli } = await import(fromSource ? '../src/cli.ts' : '../dist/cli.js');
const io = { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd() };
process.exitCode = await runCli(process.argv.slice(2), io);
