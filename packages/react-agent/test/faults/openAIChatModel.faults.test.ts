import { type ChatChunk, ChatResponseAccumulator, ModelError } from '@rxagent/core';
import { OpenAIChatModel, type OpenAIChatModelOptions } from '@rxagent/react-agent';
import OpenAI from 'openai';
import { lastValueFrom, type Observable, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import {
  answerSse,
  deltaChunk,
  type FaultHandler,
  type FaultServer,
  sseData,
  startFaultServer,
  startSse,
} from './faultServer.js';

let server: FaultServer | undefined;

async function serve(handler: FaultHandler): Promise<FaultServer> {
  server = await startFaultServer(handler);
  return server;
}

function model(options: OpenAIChatModelOptions = {}): OpenAIChatModel {
  return new OpenAIChatModel({
    model: 'fault-model',
    baseURL: server?.baseURL ?? '',
    apiKey: 'k',
    maxRetries: 2,
    retryBaseDelayMs: 1,
    timeoutMs: 2_000,
    ...options,
  });
}

const ask = { messages: [{ role: 'user' as const, content: 'hi' }] };

async function response(chunks: Observable<ChatChunk>) {
  const accumulator = new ChatResponseAccumulator();
  for (const chunk of await lastValueFrom(chunks.pipe(toArray()))) accumulator.add(chunk);
  return accumulator.response();
}

/** The error the stream ends with, and how long it took. */
async function failure(chunks: Observable<ChatChunk>): Promise<{ error: ModelError; ms: number }> {
  const started = performance.now();
  const error = await lastValueFrom(chunks).then(
    () => {
      throw new Error('expected a ModelError, the stream completed');
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ModelError);
  return { error: error as ModelError, ms: performance.now() - started };
}

describe('OpenAIChatModel against a faulty server', () => {
  it('errors when a text stream is cut without a finish reason or [DONE], naming the cut', async () => {
    await serve((_req, res) => {
      startSse(res);
      res.write(sseData(deltaChunk({ content: 'Half an ans' })));
      res.end();
    });
    const { error } = await failure(model().stream(ask));
    expect(error.message).toMatch(/ended before the reply was complete/);
    // A chunk was emitted: never retried.
    expect(server?.requests).toBe(1);
  });

  it('errors when a stream is cut in the middle of a tool call', async () => {
    await serve((_req, res) => {
      startSse(res);
      res.write(
        sseData(
          deltaChunk({
            tool_calls: [
              { index: 0, id: 'c1', type: 'function', function: { name: 'w', arguments: '{"ci' } },
            ],
          }),
        ),
        // Cut once the chunk is on the wire, so the client has emitted it.
        () => res.socket?.destroy(),
      );
    });
    const { error } = await failure(model().stream(ask));
    expect(error.message).toMatch(/connection|ended before/);
    expect(server?.requests).toBe(1);
  });

  it('retries an empty event stream (nothing emitted) and then reports it', async () => {
    await serve((_req, res) => {
      startSse(res);
      res.end();
    });
    const { error } = await failure(model({ maxRetries: 1 }).stream(ask));
    expect(error.message).toMatch(/ended before the reply was complete/);
    expect(server?.requests).toBe(2);
  });

  it.each([
    [
      'a JSON error',
      'application/json',
      '{"error":{"message":"model is loading"}}',
      /model is loading/,
    ],
    [
      'an HTML page',
      'text/html',
      `<html><body>${'Maintenance. '.repeat(20_000)}</body></html>`,
      /text\/html/,
    ],
  ])(
    'reports a streamed 200 whose body is %s, quoting it briefly, without retrying',
    async (_, type, body, pattern) => {
      await serve((_req, res) => {
        res.writeHead(200, { 'content-type': type });
        res.end(body);
      });
      const { error } = await failure(model().stream(ask));
      expect(error.message).toMatch(pattern);
      expect(error.message).toMatch(/not an event stream/);
      expect(error.message.length).toBeLessThan(1_000);
      expect(server?.requests).toBe(1);
    },
  );

  it.each([
    [
      'a JSON error',
      'application/json',
      '{"error":{"message":"model is loading"}}',
      /model is loading/,
    ],
    ['an HTML page', 'text/html', '<html><body>Maintenance</body></html>', /Maintenance/],
    ['an empty body', 'application/json', '', /empty body|not a chat completion|not valid JSON/],
  ])(
    'reports a non-streamed 200 whose body is %s, without retrying',
    async (_, type, body, pattern) => {
      await serve((_req, res) => {
        res.writeHead(200, { 'content-type': type });
        res.end(body);
      });
      const { error } = await failure(model({ stream: false }).stream(ask));
      expect(error.message).toMatch(pattern);
      expect(error.message).not.toMatch(/connection was cut/);
      expect(server?.requests).toBe(1);
    },
  );

  it.each([
    ['an error object in a data line', 'data: {"error":{"message":"context overflow"}}\n\n'],
    ['an error event', 'event: error\ndata: {"message":"context overflow"}\n\n'],
  ])('reports %s mid-stream with the server message, without retrying', async (_, event) => {
    await serve((_req, res) => {
      startSse(res);
      res.write(sseData(deltaChunk({ content: 'partial' })));
      res.end(event);
    });
    const { error } = await failure(model().stream(ask));
    expect(error.message).toMatch(/reported an error mid-stream: context overflow/);
    expect(error.retryable).toBe(false);
    expect(server?.requests).toBe(1);
  });

  it('reads a stream whose lines end with CRLF, with comments and a keep-alive event between chunks', async () => {
    await serve((_req, res) => {
      startSse(res);
      const crlf = (text: string) => text.replace(/\n/g, '\r\n');
      res.write(crlf(`: processing\n\n${sseData(deltaChunk({ content: 'Hel' }))}`));
      res.write(crlf(`event: ping\n\n${sseData(deltaChunk({ content: 'lo' }))}`));
      res.write(crlf(sseData(deltaChunk({}, 'stop'))));
      res.end('data: [DONE]\r\n\r\n');
    });
    const reply = await response(model().stream(ask));
    expect(reply.text).toBe('Hello');
    expect(reply.finishReason).toBe('stop');
  });

  it('reports a malformed data line as invalid JSON, without retrying', async () => {
    await serve((_req, res) => {
      startSse(res);
      res.end('data: {"choices":[{"delta":{"content":"x"\n\n');
    });
    const { error } = await failure(model().stream(ask));
    expect(error.message).toMatch(/not valid JSON/);
    expect(error.retryable).toBe(false);
    expect(server?.requests).toBe(1);
  });

  it.each([['__proto__'], ['constructor'], [200_000_000]])(
    'reports the hostile tool-call index %s as a ModelError, fast, without retrying',
    async (index) => {
      await serve((_req, res) => {
        startSse(res);
        res.write(
          sseData(
            deltaChunk({
              tool_calls: [{ index, id: 'x', function: { name: 'f', arguments: '{}' } }],
            }),
          ),
        );
        res.write(sseData(deltaChunk({}, 'tool_calls')));
        res.end('data: [DONE]\n\n');
      });
      const { error, ms } = await failure(model().stream(ask));
      expect(error.message).toMatch(/tool-call index/);
      expect(ms).toBeLessThan(1_000);
      expect(server?.requests).toBe(1);
      expect((Array.prototype as unknown as Record<string, unknown>)['id']).toBeUndefined();
    },
  );

  it.each([
    ['its own client', (): OpenAIChatModelOptions => ({})],
    [
      'a client it was given',
      (): OpenAIChatModelOptions => ({
        client: new OpenAI({ apiKey: 'k', baseURL: server?.baseURL, maxRetries: 0 }),
      }),
    ],
  ])('times out a server that never sends headers after timeoutMs, on %s', async (_, options) => {
    await serve(() => {});
    const { error, ms } = await failure(
      model({ ...options(), timeoutMs: 150, maxRetries: 0 }).stream(ask),
    );
    expect(error.message).toMatch(/timed out after 150 ms/);
    expect(error.retryable).toBe(true);
    expect(ms).toBeLessThan(2_000);
    // Sent once, never retried. On a busy machine the 150 ms may pass before this process's
    // server has even parsed the request (client and server share one event loop), so it
    // may have counted none.
    expect(server?.requests).toBeLessThanOrEqual(1);
  });

  it('times out headers followed by silence after timeoutMs', async () => {
    await serve((_req, res) => startSse(res));
    const { error, ms } = await failure(model({ timeoutMs: 150, maxRetries: 0 }).stream(ask));
    expect(error.message).toMatch(/sent nothing for 150 ms/);
    expect(ms).toBeLessThan(2_000);
  });

  it('aborts a byte trickle that never pauses long enough for timeoutMs once requestTimeoutMs passes', async () => {
    await serve((_req, res) => {
      startSse(res);
      res.write(sseData(deltaChunk({ role: 'assistant', content: '' })));
      const line = sseData(deltaChunk({ content: 'x' }));
      // A chunk every 25 ms, never an end. Server and client share this process's event loop:
      // on a machine at load 10+ on 2 cores a 200 ms gap happened (the idle timeout fired
      // instead), so the idle timeout is 60 drips long; only a stall of 1.5 s could fire it.
      const drip = setInterval(() => {
        if (!res.destroyed) res.write(line);
      }, 25);
      res.on('close', () => clearInterval(drip));
    });
    const { error, ms } = await failure(
      model({ timeoutMs: 1_500, requestTimeoutMs: 3_000, maxRetries: 0 }).stream(ask),
    );
    // Which limit ended it is the point: the idle one never saw a long enough gap.
    expect(error.message).toMatch(/requestTimeoutMs/);
    expect(error.message).not.toMatch(/sent nothing/);
    // Past the idle limit twice over, so the trickle did keep the idle timer from firing.
    expect(ms).toBeGreaterThanOrEqual(2_900);
    expect(ms).toBeLessThan(20_000);
  });

  it('bounds a byte trickle (one byte every 10 ms, never a whole chunk) by timeoutMs', async () => {
    await serve((_req, res) => {
      startSse(res);
      const line = sseData(deltaChunk({ content: 'slow' })).repeat(50);
      let at = 0;
      const drip = setInterval(() => {
        if (!res.destroyed) res.write(line.slice(at, at + 1));
        at += 1;
      }, 10);
      res.on('close', () => clearInterval(drip));
    });
    const { error, ms } = await failure(model({ timeoutMs: 300, maxRetries: 0 }).stream(ask));
    expect(error.message).toMatch(/sent nothing for 300 ms/);
    expect(ms).toBeLessThan(3_000);
  });

  it('caps a long retry-after at maxRetryAfterMs', async () => {
    await serve((_req, res, n) => {
      if (n === 1) {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '3600' });
        res.end('{"error":{"message":"slow down"}}');
      } else answerSse(res, 'Recovered');
    });
    const started = performance.now();
    const reply = await response(model({ maxRetryAfterMs: 50 }).stream(ask));
    expect(reply.text).toBe('Recovered');
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('reports a redirect with its status and target, sending the request once', async () => {
    await serve((_req, res) => {
      res.writeHead(307, { location: 'http://127.0.0.1:1/v1/chat/completions' });
      res.end();
    });
    const { error } = await failure(model().stream(ask));
    expect(error.message).toMatch(/HTTP 307/);
    expect(error.message).toMatch(/127\.0\.0\.1:1/);
    expect(server?.requests).toBe(1);
  });

  it('reports an HTML 502 page in a short message, retrying it as a server failure', async () => {
    await serve((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html', 'x-request-id': 'req_502' });
      res.end(`<html><body>${'<p>Bad gateway</p>'.repeat(12_000)}</body></html>`);
    });
    const { error } = await failure(model({ maxRetries: 1 }).stream(ask));
    expect(error.status).toBe(502);
    expect(error.message).toContain('req_502');
    expect(error.message.length).toBeLessThan(1_000);
    expect(server?.requests).toBe(2);
  });

  it('stops reading a line that never ends once it passes 32 MB, with a ModelError', async () => {
    let written = 0;
    await serve((_req, res) => {
      startSse(res);
      const block = 'z'.repeat(1024 * 1024);
      const pump = () => {
        while (!res.destroyed && written < 64) {
          written++;
          if (!res.write(block)) return void res.once('drain', pump);
        }
      };
      res.write('data: ');
      pump();
    });
    const { error } = await failure(model().stream(ask));
    expect(error.message).toMatch(/more than 33554432 bytes without ending it/);
    expect(written).toBeLessThan(64);
    expect(server?.requests).toBe(1);
  });

  it('reads a 5 MB data line and rejects a 5 MB line of garbage, each without hanging', async () => {
    const big = 'y'.repeat(5 * 1024 * 1024);
    await serve((_req, res, n) => {
      startSse(res);
      if (n === 1) {
        res.write(sseData(deltaChunk({ content: big })));
        res.write(sseData(deltaChunk({}, 'stop')));
        res.end('data: [DONE]\n\n');
      } else res.end(`data: ${big}\n\n`);
    });
    const reply = await response(model().stream(ask));
    expect(reply.text.length).toBe(big.length);
    const { error } = await failure(model().stream(ask));
    expect(error.message).toMatch(/not valid JSON/);
    expect(error.message.length).toBeLessThan(1_000);
  });

  it.each([
    ['streaming', true],
    ['not streaming', false],
  ])(
    "quotes the provider's message of a 400 whose body is a JSON array of errors, %s",
    async (_, stream) => {
      const message = "Invalid value at 'tools[0].function_declarations[0].parameters'";
      await serve((_req, res) => {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify([{ error: { code: 400, message, status: 'INVALID_ARGUMENT' } }]));
      });
      const { error } = await failure(model({ stream }).stream(ask));
      expect(error.status).toBe(400);
      expect(error.message).toContain(`HTTP 400: ${message}`);
      expect(error.message).not.toContain('no body');
      expect(server?.requests).toBe(1);
    },
  );
});
