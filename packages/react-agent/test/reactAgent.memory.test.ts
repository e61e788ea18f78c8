import {
  type JsonObject,
  type Memory,
  type Msg,
  msgHub,
  sequentialPipeline,
  userMsg,
} from '@rxagent/core';
import { ScriptedChatModel } from '@rxagent/core/testing';
import { ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';

/** A Memory written from the interface docs alone: it appends whatever it is given. */
class ListMemory implements Memory {
  list: Msg[] = [];
  add(msgs: Msg | readonly Msg[]): void {
    for (const msg of Array.isArray(msgs) ? (msgs as readonly Msg[]) : [msgs as Msg]) {
      this.list.push(msg);
    }
  }
  messages(): readonly Msg[] {
    return this.list;
  }
  delete(ids: Iterable<string>): number {
    const drop = new Set(ids);
    const before = this.list.length;
    this.list = this.list.filter((msg) => !drop.has(msg.id));
    return before - this.list.length;
  }
  replace(msgs: readonly Msg[]): void {
    this.list = [...msgs];
  }
  clear(): void {
    this.list = [];
  }
  get size(): number {
    return this.list.length;
  }
  stateDict(): JsonObject {
    return { messages: structuredClone(this.list) as unknown as JsonObject[] };
  }
  loadStateDict(state: JsonObject): void {
    this.list = structuredClone(state['messages']) as unknown as Msg[];
  }
}

const agent = (name: string, replies: string[], memory: Memory) =>
  new ReActAgent({ name, sysPrompt: 'Test.', model: new ScriptedChatModel(replies), memory });

const ids = (msgs: readonly Msg[]) => msgs.map((msg) => msg.id);

describe('ReActAgent memory', () => {
  it('stores each Msg once in a custom Memory when a hub reply is also the next input', async () => {
    const memory = new ListMemory();
    const a = agent('a', ['from a'], new ListMemory());
    const b = agent('b', ['from b'], memory);

    await lastValueFrom(
      msgHub({ participants: [a, b] }, () => sequentialPipeline([a, b], userMsg('start'))),
    );

    const stored = b.memory.messages();
    expect(new Set(ids(stored)).size).toBe(stored.length);
    expect(stored.map((msg) => msg.role)).toEqual(['assistant', 'assistant']);
  });

  it('keeps storing each Msg once after clear(), loadStateDict(), delete() and outside changes', async () => {
    const raw = new ListMemory();
    const b = agent('b', ['one', 'two', 'three', 'four'], raw);
    const input = userMsg('hi');
    await lastValueFrom(b.call(input));
    const state = b.stateDict();

    b.memory.clear();
    await lastValueFrom(b.call(input));
    expect(ids(b.memory.messages())[0]).toBe(input.id);

    b.loadStateDict(state);
    b.memory.delete([input.id]);
    await lastValueFrom(b.call(input));
    const stored = b.memory.messages();
    expect(ids(stored).filter((id) => id === input.id)).toHaveLength(1);
    expect(new Set(ids(stored)).size).toBe(stored.length);

    raw.clear();
    await lastValueFrom(b.call(input));
    expect(ids(b.memory.messages())[0]).toBe(input.id);
  });
});
