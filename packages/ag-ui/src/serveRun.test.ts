import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RunAgentInput } from '@ag-ui/core';
import { AgentBase, assistantMsg, type Msg } from '@rxagent/core';
import { Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { type PreparedRun, serveRun } from './serveRun.js';

describe('serveRun', () => {
  it('ends the run with RUN_ERROR and cancels the call when an event cannot be encoded', async () => {
    let tornDown = false;
    /** Never ends by itself; records when its call is cancelled. */
    class Slow extends AgentBase {
      protected doCall(): Observable<Msg> {
        return new Observable<Msg>(() => () => {
          tornDown = true;
        });
      }
    }
    const agent = new Slow({ name: 'slow' });
    // Validation keeps such an input out; the guard is for whatever else cannot be encoded.
    const input = {
      threadId: 't',
      runId: 'r',
      messages: [],
      tools: [],
      context: [],
      state: { count: 1n },
    } as unknown as RunAgentInput;
    const server = createServer((_req, res) => serveRun(res, runOf(input, agent), 1_000));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/`);
      const text = await response.text();
      expect(text).toMatch(
        /^data: \{"type":"RUN_ERROR","message":"The server could not send an event of this run \(Do not know how to serialize a BigInt\); the run was cancelled\.","code":"EVENT_ENCODING_FAILED"/,
      );
      expect(text.match(/^data: /gm)).toHaveLength(1);
      expect(tornDown).toBe(true);
      expect(agent.isRunning).toBe(false);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('streams a finished run and ends the response', async () => {
    class Hello extends AgentBase {
      protected doCall(): Observable<Msg> {
        return new Observable<Msg>((subscriber) => {
          subscriber.next(assistantMsg('Hello.', { name: this.name }));
          subscriber.complete();
        });
      }
    }
    const input = { threadId: 't', runId: 'r', messages: [], tools: [], context: [] };
    const server = createServer((_req, res) =>
      serveRun(res, runOf(input, new Hello({ name: 'hello' })), 1_000),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const text = await (await fetch(`http://127.0.0.1:${port}/`)).text();
      const types = [...text.matchAll(/^data: \{"type":"(\w+)"/gm)].map((match) => match[1]);
      expect(types).toEqual([
        'RUN_STARTED',
        'TEXT_MESSAGE_START',
        'TEXT_MESSAGE_CONTENT',
        'TEXT_MESSAGE_END',
        'RUN_FINISHED',
      ]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

/** The run of `agent` for `input`, as agUiHandler prepares it. */
function runOf(input: RunAgentInput, agent: AgentBase): PreparedRun {
  return {
    input,
    msgs: undefined,
    stream: () => agent.stream(),
    interrupt: () => agent.interrupt(),
  };
}
