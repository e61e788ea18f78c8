import { createServer, type Server, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { DirectRoutes, routeOf } from './directRoute.js';
import {
  type AttemptLimits,
  type AttemptTimeout,
  EventStreamAttempt,
} from './eventStreamAttempt.js';
import { createNodeFetch } from './nodeFetch.js';
import type { AttemptSink } from './retry.js';

/**
 * The smallest provider: `data: {"text": …}` events, and an `end` event when the reply is
 * whole. Its errors name what ended the attempt, so the tests can tell them apart.
 */
class LineAttempt extends EventStreamAttempt<string> {
  #finished = false;

  static start(
    routes: DirectRoutes,
    limits: AttemptLimits,
    sink: AttemptSink<string>,
    signal?: AbortSignal,
  ): () => void {
    const attempt = new LineAttempt(limits, sink, signal);
    attempt.sendAlong(routes, { ask: 'hi' }, (cause) => new Error('connection', { cause }));
    return () => attempt.teardown();
  }

  protected get replyFinished(): boolean {
    return this.#finished;
  }

  protected get where(): string {
    return 'Model "line" at the test server';
  }

  protected onEvent(data: string, event: string | undefined): void {
    if (event === 'end') {
      this.#finished = true;
      this.replyComplete();
      return;
    }
    this.sink.next((JSON.parse(data) as { text: string }).text);
  }

  protected async statusError(response: Response): Promise<unknown> {
    return new Error(`status ${response.status}: ${await response.text()}`);
  }

  protected toError(error: unknown): Error {
    return error instanceof Error ? error : new Error(String(error));
  }

  protected cutStream(): Error {
    return new Error('cut');
  }

  protected timeoutError(timeout: AttemptTimeout): Error {
    return new Error(`timeout: ${timeout}`);
  }

  protected abortError(reason: unknown): Error {
    return new Error('aborted', { cause: reason });
  }
}

const servers: Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** A server answering every request with `answer`; `closed` counts responses whose connection closed. */
async function serve(answer: (res: ServerResponse) => void) {
  const state = { closed: 0, bodies: [] as string[] };
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (part: string) => {
      body += part;
    });
    req.once('end', () => {
      state.bodies.push(body);
      res.once('close', () => state.closed++);
      answer(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const transport = createNodeFetch();
  const routes = new DirectRoutes(async () =>
    routeOf(`http://127.0.0.1:${port}/v1/lines`, { 'content-type': 'application/json' }, transport),
  );
  return { state, routes };
}

interface Outcome {
  chunks: string[];
  error?: Error;
}

/** Runs one attempt to its outcome; `onChunk` may stop it (the returned teardown). */
function run(
  routes: DirectRoutes,
  limits: AttemptLimits,
  options: { signal?: AbortSignal; onChunk?: (stop: () => void) => void } = {},
): Promise<Outcome> {
  return new Promise((resolve) => {
    const chunks: string[] = [];
    let stop = (): void => {};
    stop = LineAttempt.start(
      routes,
      limits,
      {
        next: (chunk) => {
          chunks.push(chunk);
          options.onChunk?.(() => {
            stop();
            resolve({ chunks });
          });
        },
        error: (error) => resolve({ chunks, error: error as Error }),
        complete: () => resolve({ chunks }),
      },
      options.signal,
    );
  });
}

const event = (text: string) => `data: ${JSON.stringify({ text })}\n\n`;
const SSE = { 'content-type': 'text/event-stream' };

describe('EventStreamAttempt', () => {
  it('sends the params as JSON and completes when the reply is whole, with the body still open, then closes that body after timeoutMs', async () => {
    const { state, routes } = await serve((res) => {
      res.writeHead(200, SSE);
      res.write(`${event('Hel')}${event('lo')}event: end\ndata: {}\n\n`); // never ended
    });
    const outcome = await run(routes, { timeoutMs: 1_500 });
    expect(outcome).toEqual({ chunks: ['Hel', 'lo'] });
    expect(state.bodies).toEqual(['{"ask":"hi"}']);
    expect(state.closed).toBe(0);
    await expect.poll(() => state.closed, { timeout: 20_000 }).toBe(1);
  });

  it('fails a body that ends before the reply is whole as cut, a status with statusError, a 200 JSON body as not an event stream', async () => {
    let mode: 'cut' | 'status' | 'json' = 'cut';
    const { routes } = await serve((res) => {
      if (mode === 'status') {
        res.writeHead(503, { 'content-type': 'text/plain' });
        res.end('busy');
      } else if (mode === 'json') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"error":{"message":"wrong door"}}');
      } else {
        res.writeHead(200, SSE);
        res.end(event('Hel'));
      }
    });
    const cut = await run(routes, { timeoutMs: 10_000 });
    expect(cut.chunks).toEqual(['Hel']);
    expect(cut.error?.message).toBe('cut');
    mode = 'status';
    expect((await run(routes, { timeoutMs: 10_000 })).error?.message).toBe('status 503: busy');
    mode = 'json';
    const json = await run(routes, { timeoutMs: 10_000 });
    expect(json.error?.message).toContain('wrong door');
    expect(json.error?.message).toContain('Model "line" at the test server');
  });

  it('tells the limit that ended it: the headers, a gap between events, or the whole request', async () => {
    let mode: 'silent' | 'gap' | 'trickle' = 'silent';
    const { state, routes } = await serve((res) => {
      if (mode === 'silent') return; // no headers, ever
      res.writeHead(200, SSE);
      res.write(event('a'));
      if (mode === 'trickle') {
        const timer = setInterval(() => res.write(event('b')), 20);
        res.once('close', () => clearInterval(timer));
      }
    });
    expect((await run(routes, { timeoutMs: 200 })).error?.message).toBe('timeout: headers');
    mode = 'gap';
    const gap = await run(routes, { timeoutMs: 1_000 });
    expect(gap).toMatchObject({ chunks: ['a'], error: { message: 'timeout: gap' } });
    mode = 'trickle';
    const whole = await run(routes, { timeoutMs: 5_000, requestTimeoutMs: 600 });
    expect(whole.error?.message).toBe('timeout: request');
    expect(whole.chunks.length).toBeGreaterThan(1);
    await expect.poll(() => state.closed, { timeout: 20_000 }).toBe(3);
  });

  it('aborts the request when it is stopped or its signal aborts, with the reason as cause', async () => {
    const { state, routes } = await serve((res) => {
      res.writeHead(200, SSE);
      res.write(event('a'));
    });
    const stopped = await run(routes, { timeoutMs: 10_000 }, { onChunk: (stop) => stop() });
    expect(stopped).toEqual({ chunks: ['a'] });
    await expect.poll(() => state.closed, { timeout: 20_000 }).toBe(1);
    const controller = new AbortController();
    const reason = new Error('interrupted');
    const aborted = await run(
      routes,
      { timeoutMs: 10_000 },
      { signal: controller.signal, onChunk: () => controller.abort(reason) },
    );
    expect(aborted.error).toMatchObject({ message: 'aborted', cause: reason });
    await expect.poll(() => state.closed, { timeout: 20_000 }).toBe(2);
  });
});
