import type { ServerResponse } from 'node:http';
import { ModelError, Toolkit, textOf, tool, userMsg } from '@rxagent/core';
import { OpenAIChatModel, ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  answerSse,
  deltaChunk,
  type FaultServer,
  sseData,
  startFaultServer,
  startSse,
} from './faultServer.js';

let server: FaultServer | undefined;

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

  it('survives hostile tool-call ids and arguments: the tools answer with errors and the turn ends', async () => {
    const deep = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
    const bodies: string[] = [];
    server = await startFaultServer((_req, res, n, body) => {
      bodies.push(body);
      if (n > 1) return answerSse(res, 'Done.');
      startSse(res);
      const call = (index: number, id: string, args: string) =>
        sseData(
          deltaChunk({
            tool_calls: [
              { index, id, type: 'function', function: { name: 'get_weather', arguments: args } },
            ],
          }),
        );
      res.write(call(0, '__proto__', '{"city": "Par'));
      res.write(call(1, 'constructor', deep));
      res.write(call(2, 'x'.repeat(10_000), '{"city": 42}'));
      res.end(sseData(deltaChunk({}, 'tool_calls')) + 'data: [DONE]\n\n');
    });
    const agent = new ReActAgent({
      name: 'assistant',
      sysPrompt: 'Be brief.',
      model: new OpenAIChatModel({
        model: 'fault-model',
        baseURL: server.baseURL,
        apiKey: 'k',
        maxRetries: 0,
      }),
      toolkit: new Toolkit([
        tool({
          name: 'get_weather',
          description: 'Weather of a city.',
          parameters: z.object({ city: z.string() }),
          execute: ({ city }) => `Mild in ${city}`,
        }),
      ]),
    });
    const reply = await lastValueFrom(agent.call(userMsg('go')));
    expect(textOf(reply)).toBe('Done.');
    const sent = JSON.parse(bodies[1] ?? '{}') as {
      messages: { role: string; tool_call_id?: string }[];
    };
    const results = sent.messages.filter((m) => m.role === 'tool');
    expect(results).toHaveLength(3);
    expect((Array.prototype as unknown as Record<string, unknown>)['id']).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('city');
    const again = await lastValueFrom(agent.call(userMsg('again')));
    expect(textOf(again)).toBe('Done.');
  });
});
