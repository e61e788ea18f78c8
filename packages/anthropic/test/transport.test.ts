import {
  createServer,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import Anthropic from '@anthropic-ai/sdk';
import { AnthropicChatModel, type AnthropicChatModelOptions } from '@rxagent/anthropic';
import { type ChatChunk, ModelError } from '@rxagent/core';
import { createNodeFetch } from '@rxagent/react-agent';
import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';

/** The events of a one-word reply, `message_stop` last. */
const REPLY = [
  [
    'message_start',
    { type: 'message_start', message: { id: 'm1', usage: { input_tokens: 3, output_tokens: 0 } } },
  ],
  [
    'content_block_start',
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  ],
  ['ping', { type: 'ping' }],
  [
    'content_block_delta',
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello' } },
  ],
  ['content_block_stop', { type: 'content_block_stop', index: 0 }],
  [
    'message_delta',
    { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 1 } },
  ],
  ['message_stop', { type: 'message_stop' }],
] as const;

const sse = (events: readonly (readonly [string, unknown])[]): string =>
  events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join('');

interface Seen {
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** A raw HTTP server answering every request with `answer`, recording what it was sent. */
async function rawServer(answer: (res: ServerResponse) => void) {
  const seen: Seen[] = [];
  const closed: number[] = [];
  const server: Server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (part: string) => {
      text += part;
    });
    req.once('end', () => {
      seen.push({ headers: req.headers, body: JSON.parse(text) as Record<string, unknown> });
      res.once('close', () => closed.push(performance.now()));
      answer(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  servers.push(server);
  return { baseURL: `http://127.0.0.1:${port}`, seen, closed };
}

const servers: Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

const ask = { messages: [{ role: 'user' as const, content: 'Hi' }] };

function model(baseURL: string, options: AnthropicChatModelOptions = {}): AnthropicChatModel {
  return new AnthropicChatModel({
    model: 'claude-test',
    baseURL,
    apiKey: 'k',
    maxRetries: 0,
    ...options,
  });
}

const textOf = (chunks: ChatChunk[]): string => chunks.map((c) => c.text ?? '').join('');

describe('AnthropicChatModel transport', () => {
  it('completes at message_stop while the body is still open, then closes a body that never ends after timeoutMs', async () => {
    const server = await rawServer((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sse(REPLY)); // and never ends
    });
    const chunks = await lastValueFrom(
      model(server.baseURL, { timeoutMs: 2_000 }).stream(ask).pipe(toArray()),
    );
    // Complete while the server still holds the body open.
    expect(server.closed).toHaveLength(0);
    expect(textOf(chunks)).toBe('Hello');
    expect(chunks.at(-1)?.finishReason).toBe('stop');
    await expect.poll(() => server.closed.length, { timeout: 20_000 }).toBe(1);
  });

  it('sends the headers the SDK sends, straight to the transport', async () => {
    const server = await rawServer((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(sse(REPLY));
    });
    await lastValueFrom(model(server.baseURL, { defaultHeaders: { 'x-team': 'a' } }).stream(ask));
    const client = new Anthropic({
      apiKey: 'k',
      baseURL: server.baseURL,
      maxRetries: 0,
      defaultHeaders: { 'x-team': 'a' },
      // The same transport: the headers compared are the SDK's, not the transport's.
      fetch: createNodeFetch(),
    });
    await lastValueFrom(model(server.baseURL, { client }).stream(ask));
    const [direct, sdk] = server.seen;
    const comparable = (headers: IncomingHttpHeaders) => {
      const {
        host,
        connection,
        'content-length': _length,
        'x-stainless-timeout': _t,
        ...rest
      } = headers;
      return rest;
    };
    expect(comparable(direct!.headers)).toEqual(comparable(sdk!.headers));
    expect(direct!.headers['x-team']).toBe('a');
    expect(direct!.body).toEqual(sdk!.body);
  });

  it('reads the stream through the SDK for a client the caller gave, with the same outcomes', async () => {
    let mode: 'reply' | 'cut' = 'reply';
    const server = await rawServer((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (mode === 'reply') res.end(sse(REPLY));
      else res.end(sse(REPLY.slice(0, 4)));
    });
    const client = new Anthropic({ apiKey: 'k', baseURL: server.baseURL, maxRetries: 0 });
    const chunks = await lastValueFrom(
      model(server.baseURL, { client }).stream(ask).pipe(toArray()),
    );
    expect(textOf(chunks)).toBe('Hello');
    mode = 'cut';
    const error = await lastValueFrom(model(server.baseURL, { client }).stream(ask)).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).message).toContain('ended before message_stop');
    expect((error as ModelError).retryable).toBe(true);
  });

  it('sends workspace_id and user_profile_id of extraBody as the SDK does: as headers, through the SDK', async () => {
    const server = await rawServer((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(sse(REPLY));
    });
    await lastValueFrom(model(server.baseURL, { extraBody: { workspace_id: 'w1' } }).stream(ask));
    expect(server.seen[0]!.headers['anthropic-workspace-id']).toBe('w1');
    expect(server.seen[0]!.body).not.toHaveProperty('workspace_id');
  });

  it('reports a status error with the API error type, the request id and a retry-after it honours', async () => {
    let calls = 0;
    const server = await rawServer((res) => {
      calls++;
      if (calls === 1) {
        res.writeHead(429, {
          'content-type': 'application/json',
          'request-id': 'req_1',
          'retry-after': '0',
        });
        res.end(
          JSON.stringify({
            type: 'error',
            error: { type: 'rate_limit_error', message: 'Slow down' },
          }),
        );
        return;
      }
      res.writeHead(400, { 'content-type': 'application/json', 'request-id': 'req_2' });
      res.end(
        JSON.stringify({
          type: 'error',
          error: { type: 'invalid_request_error', message: 'Bad tools' },
        }),
      );
    });
    const error = await lastValueFrom(model(server.baseURL, { maxRetries: 1 }).stream(ask)).catch(
      (e: unknown) => e,
    );
    expect(calls).toBe(2);
    expect(error).toBeInstanceOf(ModelError);
    const { message, status, retryable } = error as ModelError;
    expect({ status, retryable }).toEqual({ status: 400, retryable: false });
    expect(message).toContain('HTTP 400 invalid_request_error: Bad tools (request id req_2)');
  });

  it('fails an error event with the response request id, and a 200 JSON answer as not an event stream', async () => {
    let mode: 'event' | 'json' = 'event';
    const server = await rawServer((res) => {
      if (mode === 'json') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ type: 'error', error: { type: 'api_error', message: 'Broken proxy' } }),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'request-id': 'req_9' });
      res.end(
        sse([
          ...REPLY.slice(0, 4),
          ['error', { type: 'error', error: { type: 'invalid_request_error', message: 'Nope' } }],
        ]),
      );
    });
    const first = await lastValueFrom(model(server.baseURL).stream(ask)).catch((e: unknown) => e);
    expect((first as ModelError).message).toContain(
      'invalid_request_error mid-stream: Nope (request id req_9)',
    );
    expect((first as ModelError).retryable).toBe(false);
    mode = 'json';
    const second = await lastValueFrom(model(server.baseURL).stream(ask)).catch((e: unknown) => e);
    expect(second).toBeInstanceOf(ModelError);
    expect((second as ModelError).message).toContain('Broken proxy');
  });
});
