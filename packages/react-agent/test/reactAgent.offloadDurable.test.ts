import {
  type ChatRequest,
  InMemorySession,
  type JsonObject,
  Toolkit,
  textOf,
  tool,
  toolResults,
} from '@rxagent/core';
import { RecordingSession, ScriptedChatModel, type ScriptedReply } from '@rxagent/core/testing';
import { ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const LOG = Array.from({ length: 300 }, (_, i) => `line ${i}: ${'x'.repeat(i % 17)}`).join('\n');

function durableAgent(session: InMemorySession, script: ScriptedReply[]) {
  const fetchLogs = tool({
    name: 'fetch_logs',
    description: 'The logs.',
    parameters: z.object({}),
    idempotent: true,
    execute: () => LOG,
  });
  const model = new ScriptedChatModel(script);
  const agent = new ReActAgent({
    name: 'oncall',
    sysPrompt: 'Read logs.',
    model,
    toolkit: new Toolkit([fetchLogs]),
    offload: { overChars: 500 },
    durable: { session, key: 'run' },
  });
  return { agent, model };
}

function handleIn(request: ChatRequest): string {
  const text = request.messages.map((m) => String(m.content)).join('\n');
  return /"handle":"(result-[0-9a-f]+)"/u.exec(text)![1]!;
}

const readOn = (request: ChatRequest) => ({
  toolCalls: [{ name: 'read_result', arguments: { handle: handleIn(request), offset: 500 } }],
});

describe('ReActAgent offload with a durable checkpoint', () => {
  it('keeps an offloaded result across a crash: the recovered call reads it', async () => {
    const session = new RecordingSession();
    const first = durableAgent(session, [
      { toolCalls: [{ name: 'fetch_logs', arguments: {} }] },
      readOn,
      'read',
    ]);
    await lastValueFrom(first.agent.call());
    // The first checkpoint holding the offloaded text: the process dies right after it.
    const at = session.saves.findIndex((save) => {
      const offload = (save['state'] as JsonObject)?.['offload'] as JsonObject | undefined;
      return Object.keys((offload?.['texts'] as JsonObject | undefined) ?? {}).length > 0;
    });
    expect(at).toBeGreaterThanOrEqual(0);
    const restarted = new InMemorySession();
    await session.restoreInto(restarted, at);
    const second = durableAgent(restarted, [readOn, 'read after the crash']);
    const reply = await lastValueFrom(second.agent.recover());
    expect(textOf(reply)).toBe('read after the crash');
    const results = second.agent.memory.messages().flatMap(toolResults);
    expect(results.at(-1)!.output).toBe(LOG.slice(500, 1000));
  });
});
