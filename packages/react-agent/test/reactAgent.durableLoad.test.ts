import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  InMemorySession,
  JsonFileSession,
  type JsonObject,
  type Session,
  StateError,
  Toolkit,
  textOf,
  tool,
  UnfinishedRunError,
  unfinishedRuns,
} from '@rxagent/core';
import { ScriptedChatModel, type ScriptedReply } from '@rxagent/core/testing';
import { ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

function clerk(session: Session, script: ScriptedReply[], toolkit = new Toolkit()) {
  const model = new ScriptedChatModel(script);
  const agent = new ReActAgent({
    name: 'clerk',
    sysPrompt: 'You help.',
    model,
    toolkit,
    durable: { session, key: 'clerk' },
  });
  return { agent, model };
}

const texts = (agent: ReActAgent) => agent.memory.messages().map((msg) => textOf(msg));

describe("a fresh durable agent's first call()", () => {
  it('continues the stored conversation instead of saving over it', async () => {
    const session = new InMemorySession();
    await clerk(session, ['Hello Ada.']).agent.reply('I am Ada.');

    const { agent, model } = clerk(session, ['You are Ada.']);
    expect(textOf(await agent.reply('Who am I?'))).toBe('You are Ada.');
    expect(texts(agent)).toEqual(['I am Ada.', 'Hello Ada.', 'Who am I?', 'You are Ada.']);
    expect(model.requests[0]?.messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
    ]);
    const restarted = clerk(session, []).agent;
    await lastValueFrom(restarted.recover(), { defaultValue: undefined });
    expect(texts(restarted)).toEqual(texts(agent));
  });

  it('fails naming the key, saving nothing, when the checkpoint holds an unfinished call; recover() then call() goes on', async () => {
    const session = new InMemorySession();
    const hold = tool({
      name: 'hold',
      description: 'Waits forever.',
      parameters: z.object({}),
      execute: () => new Promise<string>(() => {}),
    });
    const first = clerk(
      session,
      [{ toolCalls: [{ id: 'h1', name: 'hold', arguments: {} }] }],
      new Toolkit([hold]),
    ).agent;
    const running = first.call('Hold on.').subscribe();
    await new Promise((resolve) => setTimeout(resolve, 20));
    running.unsubscribe(); // the process "stopped": the call stays unfinished
    const stored = await session.loadVersioned('clerk');
    expect(await unfinishedRuns(session)).toEqual(['clerk']);

    const { agent, model } = clerk(session, ['Recovered.', 'Next.'], new Toolkit([hold]));
    const error = await agent.reply('Something else.').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnfinishedRunError);
    expect(error).toMatchObject({ code: 'RUN_UNFINISHED', key: 'clerk' });
    expect((error as Error).message).toContain('session key "clerk"');
    expect((error as Error).message).toContain('recover()');
    expect(model.requests).toHaveLength(0);
    expect((await session.loadVersioned('clerk'))?.version).toBe(stored?.version);
    // Its memory is the stored one, and a second call() checks again.
    expect(texts(agent)).toEqual(['Hold on.', '']);
    await expect(agent.reply('Still else.')).rejects.toBeInstanceOf(UnfinishedRunError);

    expect(textOf(await lastValueFrom(agent.recover()))).toBe('Recovered.');
    expect(textOf(await agent.reply('Something else.'))).toBe('Next.');
    expect(await unfinishedRuns(session)).toEqual([]);
  });
});

describe('a checkpoint that fails to load', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rxagent-load-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('names the session key and the file, in recover() and in a first call()', async () => {
    const session = new JsonFileSession(dir);
    await clerk(session, ['Hi.']).agent.reply('Hello.');
    // Hand-edited: the memory is no longer a list of messages.
    const saved = (await session.loadVersioned('clerk'))!;
    const head = saved.state as { state: JsonObject };
    const edited = { ...saved.state, state: { ...head.state, memory: 'oops' } };
    await session.save('clerk', edited, { expectedVersion: saved.version });
    const file = session.pathFor('clerk');

    for (const attempt of [
      (agent: ReActAgent) => lastValueFrom(agent.recover()),
      (agent: ReActAgent) => agent.reply('Again.'),
    ]) {
      const error = await attempt(clerk(session, ['Never.']).agent).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StateError);
      expect((error as Error).message).toContain('session key "clerk"');
      expect((error as Error).message).toContain(file);
      expect((error as Error).message).toContain('memory');
    }
    expect((await session.loadVersioned('clerk'))?.version).toBe(saved.version + 1);
  });
});
