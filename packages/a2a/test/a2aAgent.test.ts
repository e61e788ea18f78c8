import { A2AAgent, A2AError, a2aHandler } from '@rxagent/a2a';
import {
  type AgentBase,
  type AgentEvent,
  handoffPipeline,
  msgHub,
  replyMetadata,
  sequentialPipeline,
  Toolkit,
  textOf,
  toolDecisions,
  userMsg,
} from '@rxagent/core';
import { EchoAgent, ScriptedChatModel } from '@rxagent/core/testing';
import { ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { opsAgent } from './agents.js';
import { type Loopback, listen } from './loopback.js';
import { startSdkServer } from './sdkServer.js';

const servers: Loopback[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function sdk() {
  const server = await startSdkServer();
  servers.push(server);
  return server;
}

/** An rxagent agent served by a2aHandler, one agent per context from `make`. */
async function served(make: () => AgentBase): Promise<string> {
  const server = await listen(
    a2aHandler(() => make(), { card: { name: 'remote', description: 'A remote agent.' } }),
  );
  servers.push(server);
  return server.url;
}

function chunksOf(events: readonly AgentEvent[]): string[] {
  return events.flatMap((event) =>
    event.type === 'reasoningChunk' && event.delta.text !== undefined ? [event.delta.text] : [],
  );
}

describe('A2AAgent against a server built on the @a2a-js/sdk', () => {
  it('replies with the task text, streaming it as reasoningChunk events', async () => {
    const server = await sdk();
    const agent = new A2AAgent({ url: server.url, name: 'remote' });
    const events = await lastValueFrom(agent.stream(userMsg('hi there')).pipe(toArray()));
    expect(chunksOf(events)).toEqual(['heard: h', 'i there']);
    const reply = events.at(-1);
    expect(reply?.type === 'reply' && textOf(reply.msg)).toBe('heard: hi there');
    expect(reply?.type === 'reply' && reply.msg.name).toBe('remote');
  });

  it('cancels the remote task on interrupt() and ends with an interrupt reply within a second', async () => {
    const server = await sdk();
    const agent = new A2AAgent({ url: server.url });
    const reply = agent.reply(userMsg('be slow'));
    await server.executor.started;
    const at = performance.now();
    agent.interrupt();
    const msg = await reply;
    expect(performance.now() - at).toBeLessThan(1000);
    expect(replyMetadata(msg).generateReason).toBe('interrupted');
    expect(server.executor.canceled).toHaveLength(1);
    expect(agent.isRunning).toBe(false);
  });

  it('cancels the remote task when the call is unsubscribed', async () => {
    const server = await sdk();
    const agent = new A2AAgent({ url: server.url });
    const subscription = agent.call(userMsg('be slow')).subscribe();
    await server.executor.started;
    subscription.unsubscribe();
    expect(agent.isRunning).toBe(false);
    await expect.poll(() => server.executor.canceled.length).toBe(1);
  });

  it('maps input-required to an approval stop, and resumes the task with toolDecisions', async () => {
    const server = await sdk();
    const agent = new A2AAgent({ url: server.url });
    const stop = await agent.reply(userMsg('please approve'));
    expect(replyMetadata(stop)).toMatchObject({
      generateReason: 'approval_required',
      pendingToolCalls: [
        { type: 'tool_use', id: 'call_1', name: 'delete_file', input: { path: 'a.txt' } },
      ],
      approvalRequired: ['call_1'],
    });
    expect(textOf(stop)).toBe('May I delete a.txt?');
    const resumed = await agent.reply(toolDecisions({ approve: ['call_1'] }));
    expect(textOf(resumed)).toBe('decided: {"approve":["call_1"],"deny":{}}');
  });

  it('errors with A2AError when no agent answers at the URL', async () => {
    const server = await sdk();
    const url = server.url;
    await server.close();
    servers.length = 0;
    const agent = new A2AAgent({ url });
    await expect(agent.reply('hi')).rejects.toBeInstanceOf(A2AError);
    expect(agent.isRunning).toBe(false);
  });

  it('rejects a url that is not an absolute http(s) URL when it is made, naming the option', () => {
    for (const url of ['not a url', '/agents/ops', 'ftp://host/agent', '', 42])
      expect(() => new A2AAgent({ url } as never), String(url)).toThrow(
        expect.objectContaining({
          name: 'InvalidArgumentError',
          message: expect.stringMatching(/^A2AAgent: options\.url /),
        }),
      );
    expect(new A2AAgent({ url: 'https://agents.example/ops' }).url).toBe(
      'https://agents.example/ops',
    );
  });

  it('rejects unknown options', () => {
    expect(() => new A2AAgent({ url: 'http://127.0.0.1:1', timeout: 5 } as never)).toThrow(
      /unknown option "timeout"/,
    );
  });
});

describe('A2AAgent in multi-agent code, the same as a local agent', () => {
  const triage = (target: AgentBase) =>
    new ReActAgent({
      name: 'triage',
      sysPrompt: 'Route the user.',
      model: new ScriptedChatModel([
        { toolCalls: [{ id: 't1', name: 'transfer_to_billing', arguments: { reason: 'refund' } }] },
      ]),
      handoffs: [target],
    });
  const billing = () =>
    new ReActAgent({
      name: 'billing',
      description: 'Invoices and refunds.',
      sysPrompt: 'You handle refunds.',
      model: new ScriptedChatModel([
        (request) => `Refund started for: ${JSON.stringify(request.messages.at(-1))}`,
      ]),
    });

  it('takes a handoff in handoffPipeline, locally and over A2A alike', async () => {
    const local = await lastValueFrom(
      handoffPipeline([triage(billing()), billing()], userMsg('I want a refund')),
    );
    const url = await served(billing);
    const remote = new A2AAgent({ url, name: 'billing', description: 'Invoices and refunds.' });
    const reply = await lastValueFrom(
      handoffPipeline([triage(remote), remote], userMsg('I want a refund')),
    );
    expect(local.metadata['handoffPath']).toEqual(['triage', 'billing']);
    expect(textOf(local)).toContain('Refund started for');
    expect(reply.metadata['handoffPath']).toEqual(['triage', 'billing']);
    expect(textOf(reply)).toContain('Refund started for');
    expect(textOf(reply)).toContain('I want a refund');
    expect(textOf(reply)).toContain('Handed off to billing: refund');
  });

  it('runs in sequentialPipeline', async () => {
    const server = await sdk();
    const remote = new A2AAgent({ url: server.url, name: 'remote' });
    const echo = new EchoAgent({ name: 'echo', prefix: 'echo:' });
    const reply = await lastValueFrom(sequentialPipeline([remote, echo], userMsg('start')));
    expect(textOf(reply)).toBe('echo:heard: start');
  });

  it('hears the others in a MsgHub and sends what it heard with its next call', async () => {
    const server = await sdk();
    const remote = new A2AAgent({ url: server.url, name: 'remote' });
    const echo = new EchoAgent({ name: 'echo', prefix: 'echo:' });
    await lastValueFrom(
      msgHub({ participants: [remote, echo] }, () =>
        sequentialPipeline([echo, remote], userMsg('hello')),
      ),
    );
    expect(server.executor.received).toEqual(['echo: echo:hello']);
    expect(echo.observed.map(textOf)).toEqual(['heard: echo: echo:hello']);
  });

  it('is a tool of a ReActAgent through asTool()', async () => {
    const server = await sdk();
    const remote = new A2AAgent({ url: server.url, name: 'remote', description: 'Hears things.' });
    const caller = new ReActAgent({
      name: 'boss',
      sysPrompt: 'Delegate.',
      model: new ScriptedChatModel([
        { toolCalls: [{ id: 'c1', name: 'remote', arguments: { request: 'the plan' } }] },
        (request) => `Remote said ${JSON.stringify(request.messages.at(-1))}`,
      ]),
      toolkit: new Toolkit([remote.asTool()]),
    });
    const reply = await caller.reply(userMsg('Ask the remote agent'));
    expect(textOf(reply)).toContain('heard: the plan');
  });
});

describe('A2AAgent against a2aHandler (rxagent on both ends)', () => {
  it('resumes a remote ReActAgent stopped for approval with toolDecisions', async () => {
    const ops = opsAgent([
      { toolCalls: [{ id: 'call_rm', name: 'delete_file', arguments: { path: 'old.log' } }] },
      'Deleted old.log.',
    ]);
    const url = await served(() => ops);
    const remote = new A2AAgent({ url, name: 'ops' });
    const stop = await remote.reply(userMsg('Clean up'));
    expect(replyMetadata(stop)).toMatchObject({
      generateReason: 'approval_required',
      pendingToolCalls: [{ id: 'call_rm', name: 'delete_file', input: { path: 'old.log' } }],
      approvalRequired: ['call_rm'],
    });
    expect(ops.deleted).toEqual([]);
    const done = await remote.reply(toolDecisions({ approve: ['call_rm'] }));
    expect(textOf(done)).toBe('Deleted old.log.');
    expect(ops.deleted).toEqual(['old.log']);
  });

  it('interrupts the remote agent, whose conversation goes on', async () => {
    const ops = opsAgent([{ text: 'slow', delayMs: 60_000 }, 'Back again.']);
    const url = await served(() => ops);
    const remote = new A2AAgent({ url, name: 'ops' });
    const reasoning = new Promise<void>((resolve) =>
      ops.addHook({ onEvent: (event) => void (event.type === 'preReasoning' && resolve()) }),
    );
    const reply = remote.reply(userMsg('Think'));
    await reasoning;
    const at = performance.now();
    remote.interrupt();
    expect(replyMetadata(await reply).generateReason).toBe('interrupted');
    expect(performance.now() - at).toBeLessThan(1000);
    expect(ops.isRunning).toBe(false);
    expect(replyMetadata(ops.memory.messages().at(-1)!).generateReason).toBe('interrupted');
    expect(textOf(await remote.reply(userMsg('Again')))).toBe('Back again.');
  });
});
