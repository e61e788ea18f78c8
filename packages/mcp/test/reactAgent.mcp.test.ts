import { Toolkit, textOf, toolResults, userMsg } from '@rxagent/core';
import { ScriptedChatModel } from '@rxagent/core/testing';
import { McpToolset } from '@rxagent/mcp';
import { ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type LoopbackMcpServer, startLoopbackMcpServer } from './loopbackMcpServer.js';

describe('ReActAgent with MCP tools', () => {
  let server: LoopbackMcpServer;
  let mcp: McpToolset;
  beforeEach(async () => {
    server = await startLoopbackMcpServer();
    mcp = await McpToolset.connect({ url: server.url });
  });
  afterEach(async () => {
    await mcp.close();
    await server.close();
  });

  it('runs a turn in which the model calls an MCP tool and answers from its result', async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ id: 'call_add', name: 'add', arguments: { a: 19, b: 23 } }] },
      (request) => {
        const last = request.messages.at(-1);
        return `The sum is ${last?.role === 'tool' ? String(last.content) : '?'}.`;
      },
    ]);
    const agent = new ReActAgent({
      name: 'calculator',
      sysPrompt: 'Use the add tool for arithmetic.',
      model,
      toolkit: new Toolkit(mcp.tools),
    });
    const reply = await lastValueFrom(agent.call(userMsg('What is 19 + 23?')));
    expect(textOf(reply)).toBe('The sum is 42.');
    expect(server.calls).toEqual([{ name: 'add', args: { a: 19, b: 23 } }]);
    const stored = agent.memory.messages().flatMap(toolResults);
    expect(stored).toEqual([{ type: 'tool_result', id: 'call_add', name: 'add', output: '42' }]);
  });
});
