import type { ServerResponse } from 'node:http';
import { HttpAgent } from '@ag-ui/client';
import type { Event, RunFinishedEvent } from '@ag-ui/core';
import { agUiHandler, denyAsToolResults } from '@rxagent/ag-ui';
import {
  AgentBase,
  type AgentBase as AgentBaseType,
  assistantMsg,
  type Msg,
  type PostCallEvent,
  readToolDecisions,
  textOf,
  toolResults,
} from '@rxagent/core';
import type { ScriptedReply } from '@rxagent/core/testing';
import { Observable, of } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { type Loopback, listen, runClient, types } from './loopback.js';
import { weatherAgent } from './weatherAgent.js';

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** One agent per thread, made by `make` on the thread's first run. */
function perThread(make: () => AgentBaseType): (input: { threadId: string }) => AgentBaseType {
  const agents = new Map<string, AgentBaseType>();
  return ({ threadId }) => {
    let agent = agents.get(threadId);
    if (agent === undefined) {
      agent = make();
      agents.set(threadId, agent);
    }
    return agent;
  };
}

function client(url: string, threadId: string, text?: string): HttpAgent {
  const agent = new HttpAgent({ url, threadId });
  if (text !== undefined) agent.addMessage({ id: `u-${text}`, role: 'user', content: text });
  return agent;
}

/** The events of a server-sent-events body. */
function sseEvents(text: string): Event[] {
  return text
    .split('\n\n')
    .filter((frame) => frame.startsWith('data: '))
    .map((frame) => JSON.parse(frame.slice('data: '.length)) as Event);
}

function finished(events: readonly Event[]): RunFinishedEvent {
  const last = events.at(-1);
  if (last?.type !== 'RUN_FINISHED') throw new Error(`the run ended with ${last?.type}`);
  return last;
}

/** Resolves with the reply of the agent's next finished call (postCall). */
function nextReply(agent: AgentBaseType): Promise<Msg> {
  return new Promise((resolve) => {
    const remove = agent.addHook({
      onEvent: (event) => {
        if (event.type !== 'postCall') return;
        remove();
        resolve((event as PostCallEvent).reply);
      },
    });
  });
}

/** Ends its first call with an approval stop; afterwards replies with what it was given. */
class ApprovalStopAgent extends AgentBase {
  readonly inputs: Msg[][] = [];
  protected doCall(msgs: Msg[]): Observable<Msg> {
    this.inputs.push(msgs);
    if (this.inputs.length > 1) {
      const decisions = msgs.map(readToolDecisions).find((found) => found !== undefined);
      const denied = Object.entries(decisions?.deny ?? {}).map(([id, why]) => `${id}=${why}`);
      const text = `resumed with approve [${decisions?.approve.join(', ')}] deny [${denied.join(', ')}]`;
      return of(assistantMsg(text, { name: this.name }));
    }
    const calls = [
      { type: 'tool_use' as const, id: 'call_rm', name: 'delete_file', input: { path: 'a.txt' } },
      { type: 'tool_use' as const, id: 'call_ls', name: 'list_files', input: {} },
    ];
    return of(
      assistantMsg(calls, {
        name: this.name,
        metadata: {
          generateReason: 'approval_required',
          pendingToolCalls: calls,
          approvalRequired: ['call_rm'],
        },
      }),
    );
  }
}

describe('agUiHandler', () => {
  it('streams a run with a tool call, its result and the answer to @ag-ui/client', async () => {
    const agent = weatherAgent([
      { toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }] },
      'Paris is sunny.',
    ]);
    server = await listen(agUiHandler(() => agent));
    const http = client(server.url, 't1', 'Weather in Paris?');
    const run = await runClient(http, { runId: 'r1' });
    expect(run.error).toBeUndefined();
    expect(types(run.events)).toEqual([
      'RUN_STARTED',
      'TOOL_CALL_START',
      'TOOL_CALL_ARGS',
      'TOOL_CALL_ARGS',
      'TOOL_CALL_END',
      'TOOL_CALL_RESULT',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'RUN_FINISHED',
    ]);
    expect(finished(run.events)).toMatchObject({
      threadId: 't1',
      runId: 'r1',
      outcome: { type: 'success' },
    });
    // The client applied the events: the tool call, its result and the answer are messages.
    expect(http.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(http.messages.at(-1)).toMatchObject({ content: 'Paris is sunny.' });
    expect(http.messages[2]).toMatchObject({ toolCallId: 'call_1', content: 'Sunny, 21°C' });
  });

  it('keeps one agent per thread: only the newest user message is new input', async () => {
    const seen: number[] = [];
    const script: ScriptedReply[] = [
      (request) => {
        seen.push(request.messages.length);
        return 'Hello!';
      },
      (request) => {
        seen.push(request.messages.length);
        return 'Still here.';
      },
    ];
    const getAgent = perThread(() => weatherAgent(script));
    server = await listen(agUiHandler(getAgent));
    const http = client(server.url, 't-memory', 'Hi');
    await runClient(http);
    http.addMessage({ id: 'u2', role: 'user', content: 'Are you there?' });
    const second = await runClient(http);
    expect(second.error).toBeUndefined();
    // Request 1: system + user. Request 2: system + user, assistant, user — from the
    // agent's memory, not a replay of the client's history (which would double it).
    expect(seen).toEqual([2, 4]);
  });

  it('ends with RUN_ERROR carrying the error code when the model fails', async () => {
    const agent = weatherAgent([{ error: { status: 500, message: 'upstream down' } }]);
    server = await listen(agUiHandler(() => agent));
    const run = await runClient(client(server.url, 't-err', 'Hi'));
    expect(types(run.events)).toEqual(['RUN_STARTED', 'RUN_ERROR']);
    expect(run.events.at(-1)).toMatchObject({ code: 'MODEL_FAILED' });
  });

  it('interrupts the agent when the client disconnects mid-run, and the thread goes on', async () => {
    const agent = weatherAgent([
      { text: 'one two three four five six seven eight', chunkDelayMs: 30 },
      'Next answer.',
    ]);
    const handler = agUiHandler(() => agent);
    const responses: Array<{ res: ServerResponse; before: number }> = [];
    server = await listen((req, res) => {
      responses.push({ res, before: res.listenerCount('close') });
      handler(req, res);
    });
    const http = client(server.url, 't-stop', 'Count slowly');
    const replied = nextReply(agent);
    const run = await runClient(http, {}, (event) => {
      if (event.type === 'TEXT_MESSAGE_CONTENT') http.abortRun();
    });
    expect(types(run.events)).not.toContain('RUN_FINISHED');
    const reply = await replied;
    expect(reply.metadata['generateReason']).toBe('interrupted');
    // Memory holds the cut exchange; the agent is idle and answers the next run.
    expect(agent.memory.messages()[0]).toMatchObject({ role: 'user' });
    expect(agent.memory.messages().at(-1)?.id).toBe(reply.id);
    const [served] = responses;
    expect(served?.res.listenerCount('close')).toBe(served?.before);
    http.addMessage({ id: 'u-next', role: 'user', content: 'Go on' });
    const next = await runClient(http);
    expect(next.error).toBeUndefined();
    expect(finished(next.events).outcome).toEqual({ type: 'success' });
  });

  it('cancels a call that ignores the interrupt after the grace period, releasing its listeners', async () => {
    let tornDown: () => void = () => undefined;
    const teardown = new Promise<void>((resolve) => {
      tornDown = resolve;
    });
    /** Never ends and never checks for interrupts. */
    class Deaf extends AgentBase {
      protected doCall(): Observable<Msg> {
        return new Observable<Msg>(() => tornDown);
      }
    }
    const agent = new Deaf({ name: 'deaf' });
    const handler = agUiHandler(() => agent, { interruptGraceMs: 20 });
    const responses: Array<{ res: ServerResponse; before: number }> = [];
    server = await listen((req, res) => {
      responses.push({ res, before: res.listenerCount('close') });
      handler(req, res);
    });
    const http = client(server.url, 't-deaf', 'Hi');
    const run = await runClient(http, {}, (event) => {
      if (event.type === 'RUN_STARTED') http.abortRun();
    });
    // The client reports its own abort as a RUN_ERROR with code "abort".
    expect(types(run.events)).toEqual(['RUN_STARTED', 'RUN_ERROR']);
    expect(run.events[1]).toMatchObject({ code: 'abort' });
    await teardown;
    const [served] = responses;
    expect(served?.res.listenerCount('close')).toBe(served?.before);
  });

  it('represents an approval stop as an interrupt and resumes with the decisions', async () => {
    const agent = new ApprovalStopAgent({ name: 'ops' });
    server = await listen(agUiHandler(() => agent));
    const http = client(server.url, 't-approve', 'Clean up');
    const first = await runClient(http);
    expect(first.error).toBeUndefined();
    expect(finished(first.events).outcome).toMatchObject({
      type: 'interrupt',
      interrupts: [{ id: 'call_rm', reason: 'tool_approval', toolCallId: 'call_rm' }],
    });
    const second = await runClient(http, {
      resume: [
        {
          interruptId: 'call_rm',
          status: 'resolved',
          payload: { approved: false, reason: 'keep it' },
        },
      ],
    });
    expect(second.error).toBeUndefined();
    const answer = second.events.find((event) => event.type === 'TEXT_MESSAGE_CONTENT');
    expect(answer).toMatchObject({ delta: 'resumed with approve [] deny [call_rm=keep it]' });
    const resumeInput = agent.inputs[1]?.[0];
    expect(readToolDecisions(resumeInput!)).toMatchObject({
      approve: [],
      deny: { call_rm: 'keep it' },
      edit: {},
    });
  });

  it('resumes a ReActAgent stopped before acting: approved calls run, denied ones are answered', async () => {
    const agent = weatherAgent([
      {
        toolCalls: [
          { id: 'call_p', name: 'get_weather', arguments: { city: 'Paris' } },
          { id: 'call_r', name: 'get_weather', arguments: { city: 'Rome' } },
        ],
      },
      'Paris is sunny; Rome was not checked.',
    ]);
    agent.addHook({
      onEvent: (event) => {
        if (event.type === 'postReasoning' && toolResults(event.reply).length === 0)
          event.stopAgent();
      },
    });
    server = await listen(agUiHandler(() => agent));
    const http = client(server.url, 't-review', 'Paris and Rome?');
    const first = await runClient(http);
    expect(finished(first.events).outcome).toMatchObject({
      type: 'interrupt',
      interrupts: [{ id: 'call_p' }, { id: 'call_r' }],
    });
    const second = await runClient(http, {
      resume: [
        { interruptId: 'call_p', status: 'resolved', payload: { approved: true } },
        { interruptId: 'call_r', status: 'cancelled' },
      ],
    });
    expect(second.error).toBeUndefined();
    // The denial is reported too (as the agent's postActing), so the client's history stays complete.
    const results = second.events.filter((event) => event.type === 'TOOL_CALL_RESULT');
    const denied = '[denied] cancelled';
    expect(results).toMatchObject([
      { toolCallId: 'call_p', content: 'Sunny, 21°C' },
      { toolCallId: 'call_r', content: denied, metadata: { isError: true } },
    ]);
    expect(finished(second.events).outcome).toEqual({ type: 'success' });
    const stored = agent.memory.messages().flatMap(toolResults);
    expect(stored.map((r) => [r.id, r.output])).toEqual([
      ['call_p', 'Sunny, 21°C'],
      ['call_r', denied],
    ]);
    expect(textOf(agent.memory.messages().at(-1)!)).toBe('Paris is sunny; Rome was not checked.');
  });

  /** A weather agent whose first call stops before acting on calls to Paris and Rome. */
  function reviewedAgent(): AgentBaseType {
    const agent = weatherAgent([
      {
        toolCalls: [
          { id: 'call_p', name: 'get_weather', arguments: { city: 'Paris' } },
          { id: 'call_r', name: 'get_weather', arguments: { city: 'Rome' } },
        ],
      },
      'Paris is sunny; Rome was not checked.',
    ]);
    agent.addHook({
      onEvent: (event) => {
        if (event.type === 'postReasoning' && toolResults(event.reply).length === 0)
          event.stopAgent();
      },
    });
    return agent;
  }

  it('with denyAsToolResults, streams the denial as the result of the call that waited', async () => {
    const agent = reviewedAgent();
    server = await listen(agUiHandler(() => agent, { resumeInput: denyAsToolResults }));
    const http = client(server.url, 't-deny', 'Paris and Rome?');
    await runClient(http);
    const second = await runClient(http, {
      resume: [
        { interruptId: 'call_p', status: 'resolved', payload: { approved: true } },
        { interruptId: 'call_r', status: 'cancelled' },
      ],
    });
    expect(second.error).toBeUndefined();
    const results = second.events.filter((event) => event.type === 'TOOL_CALL_RESULT');
    expect(results).toMatchObject([
      { toolCallId: 'call_r', content: '[denied] cancelled', metadata: { isError: true } },
      { toolCallId: 'call_p', content: 'Sunny, 21°C' },
    ]);
    expect(finished(second.events).outcome).toEqual({ type: 'success' });
  });

  it('with denyAsToolResults, sends no TOOL_CALL_RESULT for a denied id that never waited', async () => {
    const agent = reviewedAgent();
    server = await listen(agUiHandler(() => agent, { resumeInput: denyAsToolResults }));
    await runClient(client(server.url, 't-ghost', 'Paris and Rome?'));
    // @ag-ui/client checks resume entries against the interrupts; a hostile client does not.
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        threadId: 't-ghost',
        runId: 'r2',
        messages: [],
        tools: [],
        context: [],
        resume: [{ interruptId: 'call_ghost', status: 'cancelled' }],
      }),
    });
    const events = sseEvents(await response.text());
    expect(types(events), JSON.stringify(events)).toEqual(['RUN_STARTED', 'RUN_ERROR']);
    expect(events[1]).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('unknown tool call id(s) call_ghost'),
    });
  });

  it('answers 500 naming the thread when getAgent fails', async () => {
    server = await listen(
      agUiHandler(() => {
        throw new Error('no such tenant');
      }),
    );
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        threadId: 't-x',
        runId: 'r',
        messages: [{ id: 'u', role: 'user', content: 'Hi' }],
      }),
    });
    expect(response.status).toBe(500);
    expect(await response.text()).toBe('Could not get the agent for thread t-x: no such tenant\n');
  });

  it('answers 500 when getAgent returns something that is not an agent', async () => {
    server = await listen(agUiHandler(() => ({}) as AgentBaseType));
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        threadId: 't-y',
        runId: 'r',
        messages: [{ id: 'u', role: 'user', content: 'Hi' }],
      }),
    });
    expect(response.status).toBe(500);
    expect(await response.text()).toBe(
      'Could not get the agent for thread t-y: getAgent returned an object (Object), not an agent.\n',
    );
  });

  describe('rejects a bad request with a clear message', () => {
    const post = async (body: string, method = 'POST'): Promise<[number, string]> => {
      server ??= await listen(agUiHandler(() => weatherAgent([])));
      const response = await fetch(server.url, {
        method,
        headers: { 'content-type': 'application/json' },
        ...(method === 'POST' && { body }),
      });
      return [response.status, await response.text()];
    };
    const input = (messages: unknown[]): string =>
      JSON.stringify({ threadId: 't', runId: 'r', messages, tools: [], context: [] });

    it('answers 405 to a GET', async () => {
      expect(await post('', 'GET')).toEqual([405, 'POST an AG-UI RunAgentInput as JSON.\n']);
    });
    it('answers 400 to a body that is not JSON', async () => {
      const [status, text] = await post('{"threadId":');
      expect(status).toBe(400);
      expect(text).toMatch(/^Request body is not valid JSON \(/);
    });
    it('answers 400 naming the field when the body is not a RunAgentInput', async () => {
      const [status, text] = await post(JSON.stringify({ threadId: 't', messages: [] }));
      expect(status).toBe(400);
      expect(text).toMatch(/^Request body is not a valid AG-UI RunAgentInput: runId: /);
    });
    it("answers 400 when the last message is not the user's", async () => {
      const [status, text] = await post(input([{ id: 'a1', role: 'assistant', content: 'Hi' }]));
      expect(status).toBe(400);
      expect(text).toMatch(/last message .* has role "assistant"/);
    });
    it('answers 400 when there are no messages', async () => {
      const [status, text] = await post(input([]));
      expect(status).toBe(400);
      expect(text).toMatch(/messages is empty/);
    });
    it('answers 413 to a body over the limit', async () => {
      server = await listen(agUiHandler(() => weatherAgent([]), { maxBodyBytes: 64 }));
      const [status] = await post(input([{ id: 'u', role: 'user', content: 'x'.repeat(100) }]));
      expect(status).toBe(413);
    });
  });
});
