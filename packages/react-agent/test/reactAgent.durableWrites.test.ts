import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  InMemorySession,
  JsonFileSession,
  type JsonObject,
  loadCheckpoint,
  type Msg,
  type SaveOptions,
  type Session,
  Toolkit,
  textOf,
  tool,
  userMsg,
  type VersionedSession,
  type VersionedState,
  withMetadata,
} from '@rxagent/core';
import { ScriptedChatModel, type ScriptedReply } from '@rxagent/core/testing';
import { ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const PAGE = 'The review covers trials, costs and deployment. '.repeat(20);

/** A session that records what each save hands it: the key and the value, as JSON. */
class Recorder implements VersionedSession {
  writes: { key: string; json: string }[] = [];
  constructor(readonly inner: VersionedSession = new InMemorySession()) {}
  async save(key: string, state: JsonObject, options?: SaveOptions): Promise<void> {
    this.writes.push({ key, json: JSON.stringify(state) });
    await this.inner.save(key, state, options);
  }
  loadVersioned(key: string): Promise<VersionedState | undefined> {
    return this.inner.loadVersioned(key);
  }
  load(key: string): Promise<JsonObject | undefined> {
    return this.inner.load(key);
  }
  delete(key: string): Promise<void> {
    return this.inner.delete(key);
  }
  list(): Promise<string[]> {
    return this.inner.list();
  }
}

/** The ids of the messages each segment write holds (a head holds none). */
function idsWritten(writes: readonly { key: string; json: string }[]): string[] {
  return writes.flatMap(({ key, json }) => {
    const value = JSON.parse(json) as JsonObject;
    if (!key.includes('~seg.')) {
      const memory = (value['state'] as JsonObject)['memory'] as JsonObject;
      expect(memory['messages']).toEqual([]);
      return [];
    }
    return (value['messages'] as JsonObject[]).map((m) => String(m['id']));
  });
}

/** A turn of the research chat: a question, a read_source call with a 1 KB result, an answer. */
function chatAgent(session: Session, script: ScriptedReply[], key = 'run') {
  const readSource = tool({
    name: 'read_source',
    description: 'Reads a source.',
    parameters: z.object({ id: z.string() }),
    idempotent: true,
    execute: ({ id }) => `${id}: ${PAGE}`,
  });
  return new ReActAgent({
    name: 'researcher',
    sysPrompt: 'You read sources.',
    model: new ScriptedChatModel(script),
    toolkit: new Toolkit([readSource]),
    durable: { session, key, segmentSize: 4 },
  });
}

const turnScript = (turn: number): ScriptedReply[] => [
  { toolCalls: [{ id: `t${turn}`, name: 'read_source', arguments: { id: `doc-${turn}` } }] },
  `Answer ${turn}.`,
];

describe('durable checkpoints write only what is new', () => {
  it('a turn after many writes its new messages (each at most twice: piece, then block) and small heads', async () => {
    const session = new Recorder();
    const script = Array.from({ length: 60 }, (_, i) => turnScript(i)).flat();
    const agent = chatAgent(session, script);
    const perTurn: { bytes: number; ids: string[]; heads: number }[] = [];
    for (let turn = 0; turn < 30; turn++) {
      session.writes = [];
      await agent.reply(`Question ${turn}`);
      const writes = session.writes;
      perTurn.push({
        bytes: writes.reduce((sum, w) => sum + w.json.length, 0),
        ids: idsWritten(writes),
        heads: writes.filter((w) => w.key === 'run').length,
      });
    }
    const messages = agent.memory.messages();
    expect(messages).toHaveLength(120);
    // Every message of the conversation is handed to the session at most twice in all.
    const counts = new Map<string, number>();
    for (const { ids } of perTurn) for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
    for (const msg of messages) expect(counts.get(msg.id) ?? 0).toBeGreaterThanOrEqual(1);
    expect(Math.max(...counts.values())).toBeLessThanOrEqual(2);
    // A late turn writes what an early one does: its four new messages (and one sealed
    // block of four), never the conversation before them.
    for (const turn of [10, 29]) {
      const { ids, heads } = perTurn[turn]!;
      const fresh = messages.slice(4 * turn, 4 * turn + 4).map((m) => m.id);
      expect(ids.filter((id) => fresh.includes(id)).length).toBeGreaterThanOrEqual(4);
      expect(ids.length).toBeLessThanOrEqual(8);
      expect(heads).toBeGreaterThanOrEqual(5);
    }
    expect(perTurn[29]!.bytes / perTurn[10]!.bytes).toBeLessThan(1.1);
    const loaded = await loadCheckpoint(session, 'run');
    expect((loaded!.state['memory'] as JsonObject)['messages']).toEqual(
      JSON.parse(JSON.stringify(messages)),
    );
  });

  it('writes a message that was replaced by a new object (compaction, an edit, clear), in a sealed block or the tail', async () => {
    const session = new Recorder();
    const script = Array.from({ length: 10 }, (_, i) => turnScript(i)).flat();
    const agent = chatAgent(session, script);
    for (let turn = 0; turn < 3; turn++) await agent.reply(`Question ${turn}`);
    // An edit inside the first sealed block and one in the tail: new objects, same ids.
    const before = agent.memory.messages();
    const edited = before.map((m, i) =>
      i === 1 || i === 10 ? withMetadata(m, { redacted: true }) : m,
    );
    agent.memory.replace(edited);
    session.writes = [];
    await agent.reply('Question 3');
    const ids = idsWritten(session.writes);
    expect(ids).toContain(before[1]!.id);
    expect(ids).toContain(before[10]!.id);
    // The blocks untouched are not written again.
    expect(ids).not.toContain(before[5]!.id);
    const stored = (await loadCheckpoint(session, 'run'))?.state['memory'] as JsonObject;
    const storedMsgs = stored['messages'] as JsonObject[];
    expect((storedMsgs[1]!['metadata'] as JsonObject)['redacted']).toBe(true);
    expect((storedMsgs[10]!['metadata'] as JsonObject)['redacted']).toBe(true);
    expect(storedMsgs).toHaveLength(16);
    // A compaction: a summary replaces the conversation.
    agent.memory.replace([
      userMsg('Summary of 16 messages.'),
      ...agent.memory.messages().slice(-2),
    ]);
    await agent.reply('Question 4');
    const compacted = (await loadCheckpoint(session, 'run'))?.state['memory'] as JsonObject;
    expect((compacted['messages'] as unknown as Msg[]).map((m) => textOf(m))[0]).toBe(
      'Summary of 16 messages.',
    );
    expect(compacted['messages']).toHaveLength(7);
    // Only the segments of the compacted conversation are left.
    const segments = (await session.list()).filter((k) => k.startsWith('run~seg.'));
    expect(segments.length).toBeLessThanOrEqual(4);
    agent.memory.clear();
    await agent.reply('Question 5');
    const cleared = (await loadCheckpoint(session, 'run'))?.state['memory'] as JsonObject;
    expect(cleared['messages']).toHaveLength(4);
  });

  it('load, continue, save, crash, recover: the conversation is whole (JsonFileSession)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rxagent-writes-'));
    try {
      const first = chatAgent(new JsonFileSession(dir), [...turnScript(0), ...turnScript(1)]);
      await first.reply('Question 0');
      await first.reply('Question 1');
      // A second process loads the run and goes on; it dies once its tool has started
      // (its head saved, the tool's result never stored).
      const snapshots: Map<string, JsonObject>[] = [];
      const disk = new JsonFileSession(dir);
      const watched = new Recorder(disk);
      const save = watched.save.bind(watched);
      watched.save = async (key, state, options) => {
        await save(key, state, options);
        if (key !== 'run') return;
        const all = new Map<string, JsonObject>();
        for (const k of await disk.list()) all.set(k, (await disk.load(k))!);
        snapshots.push(all);
      };
      const second = chatAgent(watched, turnScript(2));
      await lastValueFrom(second.recover(), { defaultValue: undefined });
      expect(second.memory.messages()).toHaveLength(8);
      await second.reply('Question 2');
      const started = snapshots.findIndex((all) => {
        const call = all.get('run')!['call'] as JsonObject;
        const progress = call['progress'] as JsonObject | undefined;
        return ((progress?.['started'] as string[] | undefined) ?? []).includes('t2');
      });
      expect(started).toBeGreaterThan(0);
      const crashed = new InMemorySession();
      for (const [k, v] of snapshots[started]!) if (k !== 'run') await crashed.save(k, v);
      await crashed.save('run', snapshots[started]!.get('run')!);
      // A third process recovers the crashed call: the tool runs again (idempotent), the
      // answer is asked once, and the conversation is the three turns in order.
      const third = chatAgent(crashed, [turnScript(2)[1]!]);
      const reply = await lastValueFrom(third.recover());
      expect(textOf(reply)).toBe('Answer 2.');
      const texts = third.memory.messages().map((m) => `${m.role}:${textOf(m)}`);
      expect(texts.filter((t) => t.startsWith('user:'))).toEqual([
        'user:Question 0',
        'user:Question 1',
        'user:Question 2',
      ]);
      expect(texts.filter((t) => t.startsWith('assistant:Answer'))).toEqual([
        'assistant:Answer 0.',
        'assistant:Answer 1.',
        'assistant:Answer 2.',
      ]);
      expect(third.memory.messages()).toHaveLength(12);
      const whole = await loadCheckpoint(crashed, 'run');
      expect(whole?.call?.status).toBe('finished');
      expect((whole!.state['memory'] as JsonObject)['messages']).toHaveLength(12);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
