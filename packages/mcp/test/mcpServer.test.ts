import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { type AgentBase, replyMetadata, Toolkit, tool } from '@rxagent/core';
import { ScriptedChatModel, type ScriptedReply } from '@rxagent/core/testing';
import { mcpServer } from '@rxagent/mcp';
import { ReActAgent } from '@rxagent/react-agent';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function researcher(script: ScriptedReply[]): ReActAgent {
  return new ReActAgent({
    name: 'researcher',
    description: 'Researches a question and answers it.',
    sysPrompt: 'You research.',
    model: new ScriptedChatModel(script),
  });
}

async function inMemoryClient(agent: AgentBase): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = mcpServer(agent, { name: 'rxagent-test' });
  await server.connect(serverSide);
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(clientSide);
  cleanups.push(async () => {
    await client.close();
    await server.close();
  });
  return client;
}

/** mcpServer over streamable HTTP on a loopback port (one McpServer per session); `connect` opens a session. */
async function httpServer(
  make: (sessionId: string) => AgentBase,
): Promise<{ connect(): Promise<Client> }> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? sessions.get(id) : undefined;
    if (transport === undefined && req.method === 'POST' && isInitializeRequest(body)) {
      const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => void sessions.set(sessionId, created),
      });
      transport = created;
      await mcpServer(make, { name: 'rxagent-http' }).connect(created);
    }
    if (transport === undefined) {
      res.writeHead(400).end('no session');
      return;
    }
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  cleanups.push(async () => {
    for (const transport of sessions.values()) await transport.close();
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  });
  return {
    async connect() {
      const client = new Client({ name: 'test-client', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)),
      );
      cleanups.push(() => client.close());
      return client;
    },
  };
}

describe('mcpServer, called by the MCP SDK client', () => {
  it('lists the agent as one tool with one required string parameter', async () => {
    const client = await inMemoryClient(researcher([]));
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(1);
    expect(tools[0]).toMatchObject({
      name: 'researcher',
      description: 'Researches a question and answers it.',
      inputSchema: {
        type: 'object',
        properties: { request: { type: 'string' } },
        required: ['request'],
      },
    });
  });

  it('returns the reply text and streams it as progress notifications', async () => {
    const client = await inMemoryClient(
      researcher(['The sky is blue because of Rayleigh scattering.']),
    );
    const progress: Array<{ progress: number; message?: string }> = [];
    const result = await client.callTool(
      { name: 'researcher', arguments: { request: 'Why is the sky blue?' } },
      undefined,
      {
        onprogress: (p) =>
          void progress.push({
            progress: p.progress,
            ...(p.message !== undefined && { message: p.message }),
          }),
      },
    );
    expect(result.content).toEqual([
      { type: 'text', text: 'The sky is blue because of Rayleigh scattering.' },
    ]);
    expect(result.isError).toBeFalsy();
    expect(progress.map((p) => p.message).join('')).toBe(
      'The sky is blue because of Rayleigh scattering.',
    );
    expect(progress.map((p) => p.progress)).toEqual(progress.map((_, i) => i + 1));
  });

  it('interrupts the agent when the client cancels, and the conversation goes on', async () => {
    const agent = researcher([{ text: 'slow', delayMs: 60_000 }, 'Second answer.']);
    const client = await inMemoryClient(agent);
    const controller = new AbortController();
    const reasoning = new Promise<void>((resolve) =>
      agent.addHook({ onEvent: (event) => void (event.type === 'preReasoning' && resolve()) }),
    );
    const replied = new Promise<unknown>((resolve) =>
      agent.addHook({
        onEvent: (event) =>
          void (event.type === 'postCall' && resolve(replyMetadata(event.reply).generateReason)),
      }),
    );
    const call = client.callTool(
      { name: 'researcher', arguments: { request: 'Think' } },
      undefined,
      {
        signal: controller.signal,
      },
    );
    await reasoning;
    const at = performance.now();
    controller.abort('changed my mind');
    await expect(call).rejects.toThrow();
    expect(await replied).toBe('interrupted');
    expect(performance.now() - at).toBeLessThan(1000);
    const next = await client.callTool({ name: 'researcher', arguments: { request: 'Again' } });
    expect(next.content).toEqual([{ type: 'text', text: 'Second answer.' }]);
  });

  it('answers an approval stop as an error result naming the pending call', async () => {
    const agent = new ReActAgent({
      name: 'ops',
      sysPrompt: 'Ops.',
      model: new ScriptedChatModel([
        { toolCalls: [{ name: 'delete_file', arguments: { path: 'x' } }] },
      ]),
      toolkit: new Toolkit([
        tool({
          name: 'delete_file',
          description: 'Deletes.',
          parameters: z.object({ path: z.string() }),
          needsApproval: true,
          execute: () => 'deleted',
        }),
      ]),
    });
    const client = await inMemoryClient(agent);
    const result = await client.callTool({ name: 'ops', arguments: { request: 'Clean' } });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      { type: 'text', text: expect.stringContaining('approval of delete_file') },
    ]);
  });

  it('serves each HTTP session its own agent, with progress', async () => {
    const made: string[] = [];
    const make = (sessionId: string) => {
      made.push(sessionId);
      return researcher([`answer for ${made.length}`]);
    };
    const first = await (await httpServer(make)).connect();
    const { tools } = await first.listTools();
    expect(tools.map((t) => t.name)).toEqual(['rxagent-http']);
    let chunks = 0;
    const result = await first.callTool(
      { name: 'rxagent-http', arguments: { request: 'Hi' } },
      undefined,
      {
        onprogress: () => {
          chunks += 1;
        },
      },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'answer for 1' }]);
    expect(chunks).toBeGreaterThan(0);
    expect(made).toHaveLength(1);
  });

  it('interrupts the session agent on an HTTP cancellation, and two sessions stay apart', async () => {
    const agents: ReActAgent[] = [];
    let started: () => void = () => undefined;
    const reasoning = new Promise<void>((resolve) => {
      started = resolve;
    });
    const make = () => {
      const n = agents.length + 1;
      const agent = researcher([{ text: 'slow', delayMs: 60_000 }, `fresh ${n}`]);
      agent.addHook({ onEvent: (event) => void (event.type === 'preReasoning' && started()) });
      agents.push(agent);
      return agent;
    };
    const server = await httpServer(make);
    const first = await server.connect();
    const controller = new AbortController();
    const call = first.callTool(
      { name: 'rxagent-http', arguments: { request: 'Think' } },
      undefined,
      {
        signal: controller.signal,
      },
    );
    await reasoning;
    const interrupted = new Promise<unknown>((resolve) =>
      agents[0]?.addHook({
        onEvent: (event) =>
          void (event.type === 'postCall' && resolve(replyMetadata(event.reply).generateReason)),
      }),
    );
    controller.abort();
    await expect(call).rejects.toThrow();
    expect(await interrupted).toBe('interrupted');
    const again = await first.callTool({ name: 'rxagent-http', arguments: { request: 'Again' } });
    expect(again.content).toEqual([{ type: 'text', text: 'fresh 1' }]);
    expect(agents).toHaveLength(1);
    // A second session gets its own agent: its first call is that agent's first (slow) turn.
    const second = await server.connect();
    const other = new AbortController();
    const slow = second.callTool(
      { name: 'rxagent-http', arguments: { request: 'Hi' } },
      undefined,
      {
        signal: other.signal,
      },
    );
    await expect.poll(() => agents.length).toBe(2);
    other.abort();
    await expect(slow).rejects.toThrow();
    expect(agents[0]?.memory.messages().filter((msg) => msg.role === 'user')).toHaveLength(2);
  });

  it('rejects unknown options', () => {
    expect(() => mcpServer(researcher([]), { name: 'x', tools: [] } as never)).toThrow(
      /unknown option "tools"/,
    );
  });
});
