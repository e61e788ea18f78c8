import { type HookEvent, textOf, userMsg } from '@rxagent/core';
import { ScriptedChatModel } from '@rxagent/core/testing';
import { ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';

const REPLY = 'One two three four five.';

function agentWith(onEvent: (event: HookEvent) => unknown) {
  return new ReActAgent({
    name: 'assistant',
    sysPrompt: 'Be brief.',
    model: new ScriptedChatModel([{ text: REPLY }]),
    hooks: [{ name: 'chunks', onEvent: onEvent as never }],
  });
}

const chunkText = (event: HookEvent) =>
  event.type === 'reasoningChunk' ? (event.delta.text ?? '') : '';

describe('ReActAgent reasoningChunk hooks', () => {
  it('waits for an asynchronous chunk hook before the next chunk, and for the last before the reply', async () => {
    const seen: string[] = [];
    let pending = 0;
    const agent = agentWith(async (event) => {
      if (event.type !== 'reasoningChunk') {
        seen.push(`${event.type}${pending > 0 ? ' (overlapping)' : ''}`);
        return;
      }
      pending++;
      if (pending > 1) seen.push('overlap');
      await new Promise((resolve) => setTimeout(resolve, 1));
      seen.push(chunkText(event));
      pending--;
    });

    const reply = await lastValueFrom(agent.call(userMsg('Count.')));

    expect(textOf(reply)).toBe(REPLY);
    const chunks = seen.filter((entry) => !['preCall', 'preReasoning'].includes(entry));
    expect(chunks.slice(0, -2).join('')).toBe(REPLY);
    expect(chunks.slice(-2)).toEqual(['postReasoning', 'postCall']);
    expect(seen).not.toContain('overlap');
  });

  it('fails the call with the error of a chunk hook, delivering no chunk after it', async () => {
    const seen: string[] = [];
    const agent = agentWith((event) => {
      if (event.type !== 'reasoningChunk') return;
      seen.push(chunkText(event));
      if (seen.length === 2) throw new Error('chunk hook failed');
    });

    await expect(lastValueFrom(agent.call(userMsg('Count.')))).rejects.toThrow('chunk hook failed');
    expect(seen).toHaveLength(2);
    expect(agent.isRunning).toBe(false);
  });

  it('stops delivering chunks once the caller unsubscribes while a chunk hook is pending', async () => {
    const seen: string[] = [];
    let release!: () => void;
    let started!: () => void;
    const firstChunk = new Promise<void>((resolve) => (started = resolve));
    const agent = agentWith((event) => {
      if (event.type !== 'reasoningChunk') return;
      seen.push(chunkText(event));
      started();
      return new Promise<void>((resolve) => (release = resolve));
    });

    const subscription = agent.call(userMsg('Count.')).subscribe();
    await firstChunk;
    subscription.unsubscribe();
    release();
    await new Promise((resolve) => setTimeout(resolve, 5));

    expect(seen).toHaveLength(1);
    expect(agent.isRunning).toBe(false);
  });
});
