import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCheckpoint, SessionConflictError, textOf, userMsg } from '@rxagent/core';
import { ScriptedChatModel } from '@rxagent/core/testing';
import { ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteSession } from '../src/index.js';

const root = mkdtempSync(join(tmpdir(), 'rxagent-sqlite-batch-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const agentOn = (session: SqliteSession, replies: string[]) =>
  new ReActAgent({
    name: 'clerk',
    sysPrompt: 'Be brief.',
    model: new ScriptedChatModel(replies),
    durable: { session, key: 'run', segmentSize: 2 },
  });

const segments = async (session: SqliteSession) =>
  (await session.list()).filter((k) => k.startsWith('run~seg.')).sort();

describe('SqliteSession: a durable checkpoint in one transaction', () => {
  it('saves segments, head and deletes together, and a lost race leaves no segment behind', async () => {
    const path = join(root, 'race.db');
    const a = agentOn(new SqliteSession({ path }), ['one', 'two', 'three']);
    await a.reply('first');
    const second = new SqliteSession({ path });
    const b = agentOn(second, ['never']);
    await lastValueFrom(b.recover(), { defaultValue: undefined });
    await a.reply('second');
    const before = await segments(second);
    // B's first checkpoint (its call's start, with a new piece: a note added to its memory)
    // loses: rolled back whole, the piece too.
    b.memory.add(userMsg('a note'));
    await expect(b.reply('third')).rejects.toBeInstanceOf(SessionConflictError);
    expect(await segments(second)).toEqual(before);
    const stored = await loadCheckpoint(second, 'run');
    const messages = (stored!.state['memory'] as { messages: unknown[] }).messages;
    expect(messages).toHaveLength(4);
    // A goes on; the pieces a sealed block replaced are gone with the head that dropped them.
    const reply = await a.reply('fourth');
    expect(textOf(reply)).toBe('three');
    const after = await loadCheckpoint(second, 'run');
    expect((after!.state['memory'] as { messages: unknown[] }).messages).toHaveLength(6);
    // Three sealed blocks of two, no piece left over.
    expect(await segments(second)).toHaveLength(3);
  });
});
