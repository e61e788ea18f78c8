import { Agent, request } from 'node:http';
import { agUiHandler } from '@rxagent/ag-ui';
import { InvalidArgumentError } from '@rxagent/core';
import { afterEach, describe, expect, it } from 'vitest';
import { type Loopback, listen } from './loopback.js';
import { weatherAgent } from './weatherAgent.js';

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const RUN = JSON.stringify({
  threadId: 't',
  runId: 'r',
  messages: [{ id: 'u1', role: 'user', content: 'Hi' }],
  tools: [],
  context: [],
});

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

/** One request through node:http (which, unlike fetch, lets a test set Origin and Host). */
function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; agent?: Agent } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: options.method ?? 'POST', headers: options.headers ?? {}, agent: options.agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A handler whose agent counts its runs, so a test can tell that a request ran nothing. */
async function counted(options: Parameters<typeof agUiHandler>[1] = {}): Promise<() => number> {
  let runs = 0;
  server = await listen(
    agUiHandler(() => {
      runs += 1;
      return weatherAgent(['Hello.']);
    }, options),
  );
  return () => runs;
}

describe('agUiHandler request checks', () => {
  it.each([
    ['text/plain', 'text/plain'],
    ['a form', 'application/x-www-form-urlencoded'],
    ['multipart', 'multipart/form-data; boundary=b'],
    ['JSON in another charset', 'application/json; charset=latin1'],
  ])('answers 415 to %s and runs nothing', async (_, type) => {
    const runs = await counted();
    const answer = await send(server!.url, { headers: { 'content-type': type }, body: RUN });
    expect(answer.status).toBe(415);
    expect(answer.text).toBe(
      `Content-Type ${type} is not accepted: POST the RunAgentInput as application/json.\n`,
    );
    expect(answer.headers['accept-post']).toBe('application/json');
    expect(runs()).toBe(0);
  });

  it('answers 415 to a POST without Content-Type', async () => {
    const runs = await counted();
    const answer = await send(server!.url, { body: RUN });
    expect(answer.status).toBe(415);
    expect(answer.text).toMatch(/^Content-Type none is not accepted/);
    expect(runs()).toBe(0);
  });

  it('runs application/json with a UTF-8 charset', async () => {
    const runs = await counted();
    const headers = { 'content-type': 'application/json; charset=UTF-8' };
    const answer = await send(server!.url, { headers, body: RUN });
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('"type":"RUN_FINISHED"');
    expect(runs()).toBe(1);
  });

  describe('Origin', () => {
    const json = { 'content-type': 'application/json' };

    it('serves a page of its own origin and a client that sends no Origin, without CORS headers', async () => {
      await counted();
      const host = new URL(server!.url).host;
      for (const headers of [{ ...json, origin: `http://${host}` }, json]) {
        const answer = await send(server!.url, { headers, body: RUN });
        expect(answer.status).toBe(200);
        expect(answer.headers['access-control-allow-origin']).toBeUndefined();
      }
    });

    it('answers 403 to a page of another origin by default, and runs nothing', async () => {
      const runs = await counted();
      for (const origin of ['http://evil.example', 'null', `http://localhost:1`]) {
        const answer = await send(server!.url, { headers: { ...json, origin }, body: RUN });
        expect(answer.status, origin).toBe(403);
        expect(answer.text).toBe(
          `Origin ${origin} may not run this agent: a page of another origin is allowed only when agUiHandler's allowedOrigins admits it.\n`,
        );
        expect(answer.headers['access-control-allow-origin']).toBeUndefined();
      }
      expect(runs()).toBe(0);
    });

    it('serves an origin of allowedOrigins with CORS headers, and answers its preflight', async () => {
      const runs = await counted({ allowedOrigins: ['http://App.example:5173/'] });
      const origin = 'http://app.example:5173';
      const preflight = await send(server!.url, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, authorization',
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers).toMatchObject({
        'access-control-allow-origin': origin,
        'access-control-allow-methods': 'POST',
        'access-control-allow-headers': 'content-type, authorization',
        vary: 'origin',
      });
      const answer = await send(server!.url, { headers: { ...json, origin }, body: RUN });
      expect(answer.status).toBe(200);
      expect(answer.headers['access-control-allow-origin']).toBe(origin);
      expect(runs()).toBe(1);
      const other = await send(server!.url, {
        headers: { ...json, origin: 'http://app.example:5174' },
        body: RUN,
      });
      expect(other.status).toBe(403);
    });

    it('answers a preflight of a foreign origin 403, without CORS headers', async () => {
      await counted({ allowedOrigins: ['https://app.example'] });
      const answer = await send(server!.url, {
        method: 'OPTIONS',
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
      });
      expect(answer.status).toBe(403);
      expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('asks an allowedOrigins function about each foreign origin', async () => {
      const asked: string[] = [];
      await counted({
        allowedOrigins: (origin) => {
          asked.push(origin);
          return origin.endsWith('.trusted.example');
        },
      });
      const ok = await send(server!.url, {
        headers: { ...json, origin: 'https://a.trusted.example' },
        body: RUN,
      });
      const no = await send(server!.url, {
        headers: { ...json, origin: 'https://evil.example' },
        body: RUN,
      });
      expect([ok.status, no.status]).toEqual([200, 403]);
      expect(asked).toEqual(['https://a.trusted.example', 'https://evil.example']);
    });

    it('answers 500 when the allowedOrigins function throws', async () => {
      await counted({
        allowedOrigins: () => {
          throw new Error('policy store down');
        },
      });
      const answer = await send(server!.url, {
        headers: { ...json, origin: 'https://a.example' },
        body: RUN,
      });
      expect([answer.status, answer.text]).toEqual([500, 'policy store down\n']);
    });
  });

  describe('413', () => {
    it('answers every oversized upload of a keep-alive pool 413 with Connection: close, never a reset', async () => {
      await counted();
      const agent = new Agent({ keepAlive: true, maxSockets: 2 });
      try {
        const big = JSON.stringify({
          threadId: 't',
          runId: 'r',
          messages: [{ id: 'u1', role: 'user', content: 'x'.repeat(3 * 1024 * 1024) }],
          tools: [],
          context: [],
        });
        const headers = { 'content-type': 'application/json' };
        for (let round = 0; round < 3; round++) {
          const answers = await Promise.all(
            Array.from({ length: 4 }, () => send(server!.url, { headers, body: big, agent })),
          );
          for (const answer of answers) {
            expect(answer.status).toBe(413);
            expect(answer.headers.connection).toBe('close');
            expect(answer.text).toBe(
              'Request body is larger than 1048576 bytes (maxBodyBytes): send a shorter RunAgentInput.\n',
            );
          }
        }
        // The pool still works for a normal run afterwards.
        const normal = await send(server!.url, { headers, body: RUN, agent });
        expect(normal.status).toBe(200);
      } finally {
        agent.destroy();
      }
    }, 60_000);
  });

  describe('options', () => {
    it('rejects an unknown option naming the likely one', () => {
      expect(() => agUiHandler(() => weatherAgent([]), { maxBodyByte: 10 } as never)).toThrow(
        'agUiHandler: unknown option "maxBodyByte" (did you mean "maxBodyBytes"?)',
      );
    });

    it('rejects a bad limit or allowedOrigins entry', () => {
      const make = (options: Parameters<typeof agUiHandler>[1]) => () =>
        agUiHandler(() => weatherAgent([]), options);
      expect(make({ maxInputDepth: 0 })).toThrow(InvalidArgumentError);
      expect(make({ maxBodyBytes: 1.5 })).toThrow('maxBodyBytes must be a positive whole number');
      for (const entry of ['app.example', 'https://app.example/path', 'null', '*']) {
        expect(make({ allowedOrigins: [entry] }), entry).toThrow(
          `allowedOrigins entry "${entry}" is not an origin`,
        );
      }
    });

    it('answers 400 naming maxInputDepth for a body nested deeper than the limit', async () => {
      await counted({ maxInputDepth: 4 });
      const body = RUN.replace('"context":[]', '"context":[],"state":{"a":{"b":{"c":{}}}}');
      const answer = await send(server!.url, {
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(answer.status).toBe(400);
      expect(answer.text).toBe(
        'Request body is nested more than 4 levels deep (maxInputDepth): flatten it, or raise the limit.\n',
      );
    });
  });
});
