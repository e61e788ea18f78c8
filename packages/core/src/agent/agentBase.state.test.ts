import { EMPTY, lastValueFrom, NEVER, type Observable, of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { AgentBusyError, InvalidArgumentError, StateError } from '../errors.js';
import { isJsonObject, type JsonObject } from '../json.js';
import { assistantMsg, type Msg, userMsg } from '../message/msg.js';
import type { StateModule } from '../state/stateModule.js';
import { AgentBase } from './agentBase.js';

/** A counter that validates before it changes anything, as StateModule requires. */
class Counter implements StateModule {
  count = 0;
  stateDict(): JsonObject {
    return { count: this.count };
  }
  loadStateDict(state: JsonObject): void {
    if (typeof state['count'] !== 'number')
      throw new StateError('count must be a number.', 'count');
    this.count = state['count'];
  }
}

/** Notes kept in order; rejects a malformed entry with an indexed path. */
class Notes implements StateModule {
  items: string[] = [];
  stateDict(): JsonObject {
    return { items: [...this.items] };
  }
  loadStateDict(state: JsonObject): void {
    const items = state['items'];
    if (!Array.isArray(items)) throw new StateError('items must be an array.', 'items');
    const bad = items.findIndex((item) => typeof item !== 'string');
    if (bad >= 0) throw new StateError('each note must be a string.', `[${bad}]`);
    this.items = items as string[];
  }
}

class StatefulAgent extends AgentBase {
  readonly counter = new Counter();
  readonly notes = new Notes();
  #reply: () => Observable<Msg> = () => of(assistantMsg('ok'));

  constructor(extra?: Record<string, StateModule>) {
    super({ name: 'stateful' });
    this.registerState('counter', this.counter);
    this.registerState('notes', this.notes);
    for (const [key, module] of Object.entries(extra ?? {})) this.registerState(key, module);
  }

  hang(): void {
    this.#reply = () => NEVER;
  }

  protected doCall(): Observable<Msg> {
    this.counter.count++;
    return this.#reply();
  }
}

function populated(): StatefulAgent {
  const agent = new StatefulAgent();
  agent.counter.count = 7;
  agent.notes.items = ['first', 'second "quoted"', 'ünïcödé'];
  return agent;
}

function thrown(fn: () => void): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('AgentBase state', () => {
  it('captures { version: 1, agentName, ...registered modules } in registration order', () => {
    const agent = populated();
    const state = agent.stateDict();
    expect(state).toEqual({
      version: 1,
      agentName: agent.name,
      counter: { count: 7 },
      notes: { items: ['first', 'second "quoted"', 'ünïcödé'] },
    });
    expect(Object.keys(state)).toEqual(['version', 'agentName', 'counter', 'notes']);
  });

  it('gives { version: 1, agentName } for an agent without state modules', () => {
    class Bare extends AgentBase {
      protected doCall(): Observable<Msg> {
        return EMPTY;
      }
    }
    expect(new Bare({ name: 'bare' }).stateDict()).toEqual({ version: 1, agentName: 'bare' });
  });

  it('round-trips byte-identically into a fresh agent', () => {
    const saved = JSON.stringify(populated().stateDict());
    const fresh = new StatefulAgent();

    fresh.loadStateDict(JSON.parse(saved) as JsonObject);

    expect(JSON.stringify(fresh.stateDict())).toBe(saved);
    expect(fresh.counter.count).toBe(7);
  });

  it('counts state changed by calls', async () => {
    const agent = new StatefulAgent();
    await lastValueFrom(agent.call(userMsg('a')));
    await lastValueFrom(agent.call(userMsg('b')));
    expect(agent.stateDict()['counter']).toEqual({ count: 2 });
  });

  it('leaves a module whose key the state omits as it is', () => {
    const agent = populated();
    agent.loadStateDict({ version: 1, counter: { count: 1 } });
    expect(agent.counter.count).toBe(1);
    expect(agent.notes.items).toEqual(['first', 'second "quoted"', 'ünïcödé']);
  });

  it('rejects "version" as a state key', () => {
    class Clash extends StatefulAgent {
      constructor() {
        super({ version: new Counter() });
      }
    }
    expect(() => new Clash()).toThrow(InvalidArgumentError);
  });

  it.each([
    [
      'a newer version',
      { version: 2, counter: { count: 1 } },
      'version',
      /state version 2 is not supported/,
    ],
    ['a missing version', { counter: { count: 1 } }, 'version', /state version undefined/],
    ['an unknown key', { version: 1, counter: { count: 1 }, memory: {} }, 'memory', /"memory"/],
    [
      'a part that is not an object',
      { version: 1, counter: { count: 1 }, notes: [] },
      'notes',
      /must be an object/,
    ],
    [
      'a module error',
      { version: 1, counter: { count: 1 }, notes: { items: 'x' } },
      'notes.items',
      /items must be an array/,
    ],
    [
      'an indexed module error',
      { version: 1, counter: { count: 1 }, notes: { items: ['ok', 3] } },
      'notes[1]',
      /must be a string/,
    ],
  ])(
    'throws a StateError with its path for %s and leaves the agent unchanged',
    (_label, state, path, message) => {
      const agent = populated();
      const before = JSON.stringify(agent.stateDict());

      const error = thrown(() => agent.loadStateDict(state as JsonObject));

      expect(error).toBeInstanceOf(StateError);
      expect((error as StateError).path).toBe(path);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).toContain('stateful');
      expect(JSON.stringify(agent.stateDict())).toBe(before);
    },
  );

  it('throws a StateError for a state that is not an object', () => {
    const agent = populated();
    for (const state of [null, [], 'state']) {
      const error = thrown(() => agent.loadStateDict(state as unknown as JsonObject));
      expect(error).toBeInstanceOf(StateError);
      expect((error as StateError).path).toBe('');
    }
  });

  it('wraps a module error that is not a StateError, keeping it as cause', () => {
    const failure = new Error('disk on fire');
    const broken: StateModule = {
      stateDict: () => ({ ok: true }),
      loadStateDict: (state) => {
        if (!isJsonObject(state) || state['ok'] !== true) throw failure;
      },
    };
    const agent = new StatefulAgent({ broken });
    agent.counter.count = 3;

    const error = thrown(() =>
      agent.loadStateDict({ version: 1, counter: { count: 9 }, broken: { ok: false } }),
    );

    expect(error).toBeInstanceOf(StateError);
    expect((error as StateError).path).toBe('broken');
    expect((error as Error).message).toContain('disk on fire');
    expect((error as Error).cause).toBe(failure);
    expect(agent.counter.count).toBe(3);
  });

  it('restores modules loaded before the one that failed', () => {
    const agent = populated();
    const error = thrown(() =>
      agent.loadStateDict({ version: 1, counter: { count: 100 }, notes: { items: [1] } }),
    );
    expect(error).toBeInstanceOf(StateError);
    expect(agent.counter.count).toBe(7);
  });

  it('throws AgentBusyError from loadStateDict while a call is in flight, changing nothing', () => {
    const agent = populated();
    agent.hang();
    const subscription = agent.call(userMsg('x')).subscribe();
    const before = JSON.stringify(agent.stateDict());

    expect(() => agent.loadStateDict({ version: 1, counter: { count: 0 } })).toThrow(
      AgentBusyError,
    );
    expect(JSON.stringify(agent.stateDict())).toBe(before);

    subscription.unsubscribe();
    agent.loadStateDict({ version: 1, counter: { count: 0 } });
    expect(agent.counter.count).toBe(0);
  });
});

/** An agent that records what `renameSpeaker` was asked. */
class Named extends AgentBase {
  readonly counter = new Counter();
  readonly renames: Array<[string, string]> = [];
  constructor(name: string) {
    super({ name });
    this.registerState('counter', this.counter);
  }
  protected override renameSpeaker(from: string, to: string): void {
    this.renames.push([from, to]);
  }
  protected doCall(): Observable<Msg> {
    return of(assistantMsg('ok'));
  }
}

describe('AgentBase state and the agent name', () => {
  it('refuses a state saved by an agent of another name, naming both, and changes nothing', () => {
    const alice = new Named('alice');
    alice.counter.count = 3;
    const bob = new Named('bob');
    const error = thrown(() => bob.loadStateDict(alice.stateDict()));
    expect(error).toBeInstanceOf(StateError);
    expect(error).toMatchObject({ code: 'STATE_INVALID', path: 'agentName' });
    expect((error as Error).message).toMatch(
      /^bob: this state was saved by the agent "alice", not "bob"/,
    );
    expect((error as Error).message).toMatch(/\{ rename: true \}/);
    expect(bob.counter.count).toBe(0);
    expect(bob.renames).toEqual([]);
  });

  it('loads it with { rename: true } and asks the agent to make the turns its own', () => {
    const alice = new Named('alice');
    alice.counter.count = 3;
    const bob = new Named('bob');
    bob.loadStateDict(alice.stateDict(), { rename: true });
    expect(bob.counter.count).toBe(3);
    expect(bob.renames).toEqual([['alice', 'bob']]);
    expect(bob.stateDict()['agentName']).toBe('bob');
  });

  it('loads a state of the same name, or one saved without a name, without renaming', () => {
    const alice = new Named('alice');
    alice.loadStateDict({ version: 1, agentName: 'alice', counter: { count: 1 } });
    alice.loadStateDict({ version: 1, counter: { count: 2 } });
    expect(alice.counter.count).toBe(2);
    expect(alice.renames).toEqual([]);
  });

  it('rejects a non-string agentName, an unknown load option and the reserved key', () => {
    const alice = new Named('alice');
    expect(thrown(() => alice.loadStateDict({ version: 1, agentName: 7 }))).toMatchObject({
      path: 'agentName',
    });
    expect(() => alice.loadStateDict(alice.stateDict(), { renam: true } as never)).toThrow(
      /alice\.loadStateDict\(\): unknown option "renam" \(did you mean "rename"\?\)/,
    );
    expect(() => new StatefulAgent({ agentName: new Counter() })).toThrow(InvalidArgumentError);
  });
});
