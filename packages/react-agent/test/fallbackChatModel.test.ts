import { createServer } from 'node:net';
import { textOf, userMsg } from '@rxagent/core';
import { startStrictOpenAIServer } from '@rxagent/core/testing';
import { FallbackChatModel, OpenAIChatModel, ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('FallbackChatModel in a ReActAgent', () => {
  it('answers from the backup when the primary is down, and the reply and postReasoning event name it', async () => {
    const backupServer = await startStrictOpenAIServer({ script: ['From the backup.'] });
    const primaryServer = await startStrictOpenAIServer({
      script: [{ error: { status: 503, message: 'Service unavailable' } }],
    });
    try {
      const down = new OpenAIChatModel({
        model: 'refused',
        baseURL: `http://127.0.0.1:${await closedPort()}/v1`,
        maxRetries: 0,
      });
      const failing = new OpenAIChatModel({
        model: 'primary',
        baseURL: primaryServer.baseURL,
        maxRetries: 0,
      });
      const backup = new OpenAIChatModel({ model: 'backup', baseURL: backupServer.baseURL });
      const model = new FallbackChatModel([failing, down, backup]);
      const agent = new ReActAgent({ name: 'assistant', sysPrompt: 'Be brief.', model });
      const seen: (string | undefined)[] = [];
      agent.addHook({
        events: ['postReasoning'],
        onEvent: (event) => {
          if (event.type === 'postReasoning') seen.push(event.model);
        },
      });
      const reply = await lastValueFrom(agent.call(userMsg('Hi')));
      expect(textOf(reply)).toBe('From the backup.');
      expect(reply.metadata['model']).toBe('backup');
      const fallback = reply.metadata['fallback'] as { model: string; reason: string }[];
      expect(fallback.map(({ model, reason }) => [model, reason])).toEqual([
        ['primary', 'failed'],
        ['refused', 'failed'],
      ]);
      expect(fallback[0]).toMatchObject({ status: 503 });
      expect(seen).toEqual(['backup']);
      expect(backupServer.rejected).toEqual([]);
    } finally {
      await Promise.all([backupServer.close(), primaryServer.close()]);
    }
  });
});
