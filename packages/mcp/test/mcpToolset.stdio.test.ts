import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Toolkit, toolOutputText } from '@rxagent/core';
import { McpConnectionError, McpToolset } from '@rxagent/mcp';
import { afterEach, describe, expect, it } from 'vitest';
import { runTool } from './runTool.js';

/** The reference server's entry point, run with this Node. */
const EVERYTHING = fileURLToPath(
  new URL('../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);
const everything = { command: process.execPath, args: [EVERYTHING, 'stdio'] };

/** The pid of this process's child running the reference server. */
function serverPid(): number {
  const lines = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], {
    encoding: 'utf8',
  }).split('\n');
  const line = lines.find((candidate) => candidate.includes(EVERYTHING));
  if (line === undefined) throw new Error('the MCP server child process is not running');
  return Number(line.trim().split(/\s+/)[0]);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('McpToolset over stdio (reference server-everything)', () => {
  let mcp: McpToolset | undefined;
  afterEach(async () => {
    await mcp?.close();
    mcp = undefined;
  });

  it('spawns the server and lists its tools', async () => {
    mcp = await McpToolset.connect(everything);
    const names = mcp.tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['echo', 'get-sum', 'get-tiny-image']));
    expect(mcp.server).toContain('server-everything');
  });

  it('calls echo and get-sum with valid arguments', async () => {
    mcp = await McpToolset.connect(everything);
    const toolkit = new Toolkit(mcp.tools);
    expect((await runTool(toolkit, 'echo', { message: 'hello' })).output).toBe('Echo: hello');
    const sum = await runTool(toolkit, 'get-sum', { a: 2, b: 3 });
    expect(sum.isError).toBeUndefined();
    expect(toolOutputText(sum)).toContain('5');
  });

  it('rejects arguments that do not match the schema with a message naming the field', async () => {
    mcp = await McpToolset.connect(everything);
    const result = await runTool(new Toolkit(mcp.tools), 'get-sum', { a: 'two', b: 3 });
    expect(result.isError).toBe(true);
    expect(toolOutputText(result)).toMatch(/\ba\b/);
  });

  it('summarises the image of get-tiny-image', async () => {
    mcp = await McpToolset.connect(everything);
    const result = await runTool(new Toolkit(mcp.tools), 'get-tiny-image', {});
    expect(toolOutputText(result)).toMatch(/\[image: image\/png, \d+ (B|KB)\]/);
  });

  it('passes env to the child', async () => {
    mcp = await McpToolset.connect({ ...everything, env: { RXAGENT_MCP_TEST: 'from-env' } });
    const result = await runTool(new Toolkit(mcp.tools), 'get-env', {});
    expect(toolOutputText(result)).toContain('from-env');
  });

  it('gives an error result within bounded time when the server is killed mid-call', async () => {
    mcp = await McpToolset.connect(everything);
    const pid = serverPid();
    const begin = Date.now();
    const result = runTool(new Toolkit(mcp.tools), 'trigger-long-running-operation', {
      duration: 30,
      steps: 3,
    });
    process.kill(pid, 'SIGKILL');
    const block = await result;
    expect(block.isError).toBe(true);
    expect(toolOutputText(block)).toMatch(/connection closed|connection is closed/);
    expect(Date.now() - begin).toBeLessThan(5_000);
  });

  it('close() ends the child process', async () => {
    mcp = await McpToolset.connect(everything);
    const pid = serverPid();
    expect(isAlive(pid)).toBe(true);
    await mcp.close();
    expect(isAlive(pid)).toBe(false);
  });

  it('rejects with McpConnectionError quoting stderr when the command is not an MCP server', async () => {
    const failing = McpToolset.connect(
      {
        command: process.execPath,
        args: ['-e', 'console.error("no config found"); process.exit(3)'],
      },
      { connectTimeoutMs: 5_000 },
    );
    await expect(failing).rejects.toBeInstanceOf(McpConnectionError);
    await expect(failing).rejects.toThrow(/no config found/);
  });

  it('rejects with McpConnectionError when the command does not exist', async () => {
    await expect(
      McpToolset.connect({ command: 'rxagent-no-such-mcp-server' }, { connectTimeoutMs: 5_000 }),
    ).rejects.toBeInstanceOf(McpConnectionError);
  });
});
