import { InvalidArgumentError, Toolkit, toolOutputText } from '@rxagent/core';
import { McpConnectionError, McpToolset } from '@rxagent/mcp';
import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type LoopbackMcpServer, startLoopbackMcpServer } from './loopbackMcpServer.js';
import { runTool } from './runTool.js';

describe('McpToolset over streamable HTTP', () => {
  let server: LoopbackMcpServer;
  let mcp: McpToolset | undefined;

  beforeEach(async () => {
    server = await startLoopbackMcpServer();
  });
  afterEach(async () => {
    await mcp?.close();
    mcp = undefined;
    await server.close();
  });

  it("lists the server's tools as rxagent tools with its JSON Schemas", async () => {
    mcp = await McpToolset.connect({ url: server.url });
    expect(mcp.tools.map((tool) => tool.name)).toEqual(['add', 'fail', 'picture', 'wait', 'steps']);
    const add = new Toolkit(mcp.tools).schemas().find((schema) => schema.function.name === 'add');
    expect(add?.function.description).toBe('Adds two integers.');
    expect(add?.function.parameters).toMatchObject({
      type: 'object',
      properties: { a: { type: 'integer' }, b: { type: 'integer' } },
      required: ['a', 'b'],
    });
    expect(mcp.skipped).toEqual([{ name: 'files.read', reason: expect.stringMatching(/invalid/) }]);
  });

  it('calls a tool with valid arguments and returns its text', async () => {
    mcp = await McpToolset.connect({ url: server.url });
    const result = await runTool(new Toolkit(mcp.tools), 'add', { a: 2, b: 40 });
    expect(result).toEqual({ type: 'tool_result', id: 'call_1', name: 'add', output: '42' });
    expect(server.calls).toEqual([{ name: 'add', args: { a: 2, b: 40 } }]);
  });

  it('rejects invalid arguments before the call, so the server never sees it', async () => {
    mcp = await McpToolset.connect({ url: server.url });
    const result = await runTool(new Toolkit(mcp.tools), 'add', { a: 'two', b: 1.5 });
    expect(result.isError).toBe(true);
    expect(toolOutputText(result)).toMatch(/\ba\b/);
    expect(toolOutputText(result)).toMatch(/\bb\b/);
    expect(server.calls).toEqual([]);
  });

  it('turns an isError result into an error result carrying the server text', async () => {
    mcp = await McpToolset.connect({ url: server.url });
    const result = await runTool(new Toolkit(mcp.tools), 'fail', {});
    expect(result.isError).toBe(true);
    expect(toolOutputText(result)).toContain('disk quota exceeded');
  });

  it('summarises non-text content', async () => {
    mcp = await McpToolset.connect({ url: server.url });
    const result = await runTool(new Toolkit(mcp.tools), 'picture', {});
    expect(result.isError).toBeUndefined();
    expect(result.output).toBe('A red square.\n[image: image/png, 12 KB]');
  });

  it('sends notifications/cancelled when the run is aborted, and the server receives it', async () => {
    mcp = await McpToolset.connect({ url: server.url });
    const controller = new AbortController();
    const started = server.nextWaitStarted();
    const cancellation = server.nextCancellation();
    const result = runTool(new Toolkit(mcp.tools), 'wait', {}, controller.signal);
    await started;
    controller.abort(new Error('user pressed stop'));
    await expect(result).resolves.toMatchObject({ isError: true });
    expect(toolOutputText(await result)).toContain('[interrupted]');
    await cancellation;
    expect(server.cancellations).toHaveLength(1);
  });

  it('streams progress notifications as chunks before the result', async () => {
    mcp = await McpToolset.connect({ url: server.url });
    const events = await lastValueFrom(
      new Toolkit(mcp.tools)
        .execute(
          { id: 'call_1', name: 'steps', input: {} },
          {
            signal: new AbortController().signal,
            toolCallId: 'call_1',
          },
        )
        .pipe(toArray()),
    );
    expect(events).toEqual([
      { type: 'chunk', output: '[progress 1/2: step 1]\n' },
      { type: 'chunk', output: '[progress 2/2: step 2]\n' },
      {
        type: 'result',
        result: { type: 'tool_result', id: 'call_1', name: 'steps', output: 'all steps done' },
      },
    ]);
  });

  it('cancels the call on the server when the tool run is unsubscribed', async () => {
    mcp = await McpToolset.connect({ url: server.url });
    const started = server.nextWaitStarted();
    const cancellation = server.nextCancellation();
    const subscription = new Toolkit(mcp.tools)
      .execute(
        { id: 'call_1', name: 'wait', input: {} },
        {
          signal: new AbortController().signal,
          toolCallId: 'call_1',
        },
      )
      .subscribe();
    await started;
    subscription.unsubscribe();
    await cancellation;
    expect(server.cancellations).toHaveLength(1);
  });

  it('prefixes tool names and keeps calling the server by its own name', async () => {
    mcp = await McpToolset.connect({ url: server.url }, { prefix: 'calc_' });
    expect(mcp.tools[0]?.name).toBe('calc_add');
    const result = await runTool(new Toolkit(mcp.tools), 'calc_add', { a: 1, b: 2 });
    expect(result.output).toBe('3');
    expect(server.calls).toEqual([{ name: 'add', args: { a: 1, b: 2 } }]);
  });

  it('gives an error result within bounded time when the server crashes mid-call', async () => {
    mcp = await McpToolset.connect({ url: server.url }, { timeoutMs: 3_000 });
    const started = server.nextWaitStarted();
    const begin = Date.now();
    const result = runTool(new Toolkit(mcp.tools), 'wait', {});
    await started;
    server.crash();
    const block = await result;
    expect(block.isError).toBe(true);
    expect(toolOutputText(block)).toContain(server.url);
    // Well under the 3 s call timeout: the cut connection itself ends the call.
    expect(Date.now() - begin).toBeLessThan(2_000);
  });

  it('ends calls after close() with an error result', async () => {
    mcp = await McpToolset.connect({ url: server.url });
    const toolkit = new Toolkit(mcp.tools);
    await mcp.close();
    const result = await runTool(toolkit, 'add', { a: 1, b: 2 });
    expect(result.isError).toBe(true);
    expect(toolOutputText(result)).toMatch(/connection is closed/);
    expect(server.calls).toEqual([]);
  });

  it('rejects with McpConnectionError naming the URL when nothing listens there', async () => {
    const nowhere = 'http://127.0.0.1:1/mcp';
    const failing = McpToolset.connect({ url: nowhere }, { connectTimeoutMs: 3_000 });
    await expect(failing).rejects.toBeInstanceOf(McpConnectionError);
    await expect(failing).rejects.toMatchObject({ code: 'MCP_FAILED', server: nowhere });
  });

  it('rejects bad options with InvalidArgumentError naming the field', async () => {
    await expect(McpToolset.connect({ url: 'ftp://example.com' })).rejects.toBeInstanceOf(
      InvalidArgumentError,
    );
    await expect(McpToolset.connect({ command: '' })).rejects.toThrow(/command/);
    await expect(McpToolset.connect({ url: server.url }, { timeoutMs: -1 })).rejects.toThrow(
      /timeoutMs/,
    );
  });
});
