import type { ServerResponse } from 'node:http';
import { ModelError, textOf, userMsg } from '@rxagent/core';
import { OpenAIChatModel, ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import {
  answerSse,
  deltaChunk,
  type FaultServer,
  sseData,
  startFaultServer,
  startSse,
} from './faultServer.js';

let server: FaultServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Faults a first request can meet; each leaves the agent callable. */
const faults: [string, (res: ServerResponse) => void, RegExp][] = [
  [
    'a text stream cut without a finish reason',
    (res) => {
      startSse(res);
      res.end(sseData(deltaChunk({ content: 'Partial' })));
    },
    /ended before the reply was complete/,
  ],
  [
    'a malformed data line',
    (res) => {
      startSse(res);
      res.end('data: {not json\n\n');
    },
    /not valid JSON/,
  ],
  [
    'a hostile tool-call index',
    (res) => {
      startSse(res);
      res.write(
        sseData(
          deltaChunk({ tool_calls: [{ index: '__proto__', id: 'x', function: { name: 'f' } }] }),
        ),
      );
      res.end('data: [DONE]\n\n');
    },
    /tool-call index/,
  ],
  [
    'an HTML page answered with 200',
    (res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>Sign in to continue</html>');
    },
    /not an event stream/,
  ],
  [
    'an HTML 400 page',
    (res) => {
      res.writeHead(400, { 'content-type': 'text/html' });
      res.end(`<html>${'Bad request. '.repeat(10_000)}</html>`);
    },
    /HTTP 400/,
  ],
];

describe('ReActAgent over a faulty OpenAI-compatible server', () => {
  it.each(faults)(
    'fails the turn on %s with a ModelError, then answers the next call',
    async (_, fault, pattern) => {
      const bodies: string[] = [];
      server = await startFaultServer((_req, res, n, body) => {
        bodies.push(body);
        if (n === 1) fault(res);
        else answerSse(res, 'Fine again.');
      });
      const agent = new ReActAgent({
        name: 'assistant',
        sysPrompt: 'Be brief.',
        model: new OpenAIChatModel({
          model: 'fault-model',
          baseURL: server.baseURL,
          apiKey: 'k',
          maxRetries: 0,
          timeoutMs: 2_000,
        }),
      });
      const error = await lastValueFrom(agent.call(userMsg('first'))).catch(
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(ModelError);
      expect((error as ModelError).message).toMatch(pattern);
      expect((error as ModelError).message.length).toBeLessThan(1_000);

      const reply = await lastValueFrom(agent.call(userMsg('second')));
      expect(textOf(reply)).toBe('Fine again.');
      expect(server.requests).toBe(2);
      const sent = JSON.parse(bodies[1] ?? '{}') as {
        messages: { role: string; content: unknown }[];
      };
      expect(sent.messages.at(-1)).toMatchObject({ role: 'user', content: 'second' });
    },
  );
});
