import { defer, delay, EMPTY, lastValueFrom, type Observable, of, throwError } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Hook, HookResult } from '../hooks/hook.js';
import type { HookEvent, PreActingEvent, PreCallEvent } from '../hooks/hookEvent.js';
import { assistantMsg, type Msg, userMsg } from '../message/msg.js';
import { textOf } from '../message/readers.js';
import { AgentBase } from './agentBase.js';
import type { CallContext } from './callContext.js';

/** Replies with its system prompt; `emitPreActing` lets tests fire a custom event. */
class PromptEcho extends AgentBase {
  calls = 0;

  constructor(name = 'echo') {
    super({ name });
  }

  protected doCall(_msgs: Msg[], context: CallContext): Observable<Msg> {
    this.calls++;
    return of(assistantMsg(context.systemPrompt));
  }

  emitPreActing(input: Record<string, string>): Observable<PreActingEvent> {
    return this.notify<PreActingEvent>({
      type: 'preActing',
      agent: this,
      toolCall: { type: 'tool_use', id: 'call-1', name: 'lookup', input },
      deny: () => undefined,
    });
  }

  get listening(): boolean {
    return this.hasEventListeners;
  }
}

/** A preCall hook that appends `tag` to the system prompt. */
function tagger(tag: string, priority?: number): Hook {
  const onEvent = (event: HookEvent): void => {
    if (event.type === 'preCall') event.systemPrompt += tag;
  };
  return priority === undefined ? { name: tag, onEvent } : { name: tag, priority, onEvent };
}

/** A hook that answers preCall with `result` and ignores other events. */
function onPreCall(result: (event: PreCallEvent) => HookResult, name = 'under-test'): Hook {
  return { name, onEvent: (event) => (event.type === 'preCall' ? result(event) : undefined) };
}

async function prompt(agent: AgentBase): Promise<string> {
  return textOf(await lastValueFrom(agent.call(userMsg('x'))));
}

afterEach(() => {
  AgentBase.clearSystemHooks();
});

describe('AgentBase hook dispatch', () => {
  it('runs hooks in ascending priority, ties in registration order, each seeing the previous change', async () => {
    const agent = new PromptEcho();
    agent.addHook(tagger('[d1]'));
    agent.addHook(tagger('[late]', 500));
    agent.addHook(tagger('[early]', 1));
    agent.addHook(tagger('[d2]', 100));

    expect(await prompt(agent)).toBe('[early][d1][d2][late]');
  });

  it('merges system hooks into the same ordering', async () => {
    const agent = new PromptEcho();
    agent.addHook(tagger('[own-100]'));
    AgentBase.addSystemHook(tagger('[sys-100]'));
    AgentBase.addSystemHook(tagger('[sys-50]', 50));
    agent.addHook(tagger('[own-10]', 10));

    expect(await prompt(agent)).toBe('[own-10][sys-50][own-100][sys-100]');
  });

  it('applies system hooks to every agent until removed by their disposer or clearSystemHooks', async () => {
    const dispose = AgentBase.addSystemHook(tagger('[a]'));
    AgentBase.addSystemHook(tagger('[b]'));
    expect(await prompt(new PromptEcho('one'))).toBe('[a][b]');
    expect(await prompt(new PromptEcho('two'))).toBe('[a][b]');

    dispose();
    expect(await prompt(new PromptEcho())).toBe('[b]');

    AgentBase.clearSystemHooks();
    expect(await prompt(new PromptEcho())).toBe('');
  });

  it('stops running a hook after removeHook or its disposer', async () => {
    const agent = new PromptEcho();
    const a = tagger('[a]');
    agent.addHook(a);
    const disposeB = agent.addHook(tagger('[b]'));
    agent.addHook(tagger('[c]'));
    expect(await prompt(agent)).toBe('[a][b][c]');

    agent.removeHook(a);
    disposeB();
    agent.removeHook(tagger('[never added]'));

    expect(await prompt(agent)).toBe('[c]');
  });

  it('does not skip the next hook when a hook removes itself during dispatch', async () => {
    const agent = new PromptEcho();
    const once: Hook = {
      onEvent(event) {
        if (event.type !== 'preCall') return;
        event.systemPrompt += '[once]';
        agent.removeHook(once);
      },
    };
    agent.addHook(once);
    agent.addHook(tagger('[next]'));

    expect(await prompt(agent)).toBe('[once][next]');
    expect(await prompt(agent)).toBe('[next]');
  });

  it('gives every event the agent that fired it', async () => {
    const agent = new PromptEcho();
    const agents: unknown[] = [];
    agent.addHook({ onEvent: (event) => void agents.push(event.agent) });
    await prompt(agent);
    expect(agents).toEqual([agent, agent]);
  });

  it('runs hooks on events a subclass fires through notify(), emitting the event as they left it', async () => {
    const agent = new PromptEcho();
    agent.addHook({
      onEvent(event) {
        if (event.type === 'preActing')
          event.toolCall = { ...event.toolCall, input: { city: 'Paris' } };
      },
    });
    const event = await lastValueFrom(agent.emitPreActing({ city: 'paris' }));
    expect(event.toolCall).toEqual({
      type: 'tool_use',
      id: 'call-1',
      name: 'lookup',
      input: { city: 'Paris' },
    });
  });

  it('delivers to a hook naming events only the events of those types', async () => {
    const agent = new PromptEcho();
    const seen: string[] = [];
    const systemSeen: string[] = [];
    agent.addHook({
      events: ['postCall'],
      onEvent: (event) => {
        seen.push(event.type);
        if (event.type === 'preCall') event.systemPrompt += '[never]';
      },
    });
    AgentBase.addSystemHook({
      events: ['postCall'],
      onEvent: (event) => void systemSeen.push(event.type),
    });
    const all: string[] = [];
    agent.addHook({ onEvent: (event) => void all.push(event.type) });

    expect(await prompt(agent)).toBe('');
    await lastValueFrom(agent.emitPreActing({ city: 'paris' }));

    expect(seen).toEqual(['postCall']);
    expect(systemSeen).toEqual(['postCall']);
    expect(all).toEqual(['preCall', 'postCall', 'preActing']);
  });

  it('reports whether anything listens to hook events', () => {
    const agent = new PromptEcho();
    expect(agent.listening).toBe(false);
    const dispose = agent.addHook(tagger('[a]'));
    expect(agent.listening).toBe(true);
    dispose();
    const disposeSystem = AgentBase.addSystemHook(tagger('[s]'));
    expect(agent.listening).toBe(true);
    disposeSystem();
    expect(agent.listening).toBe(false);
  });

  it('emits within subscribe when doCall and every hook are synchronous', () => {
    const agent = new PromptEcho();
    agent.addHook(tagger('[sync]'));
    agent.addHook(
      onPreCall((event) => ({ ...event, systemPrompt: `${event.systemPrompt}[replaced]` })),
    );
    agent.addHook(onPreCall(() => of(undefined)));
    AgentBase.addSystemHook(tagger('[system]'));
    let reply: Msg | undefined;
    let completed = false;

    agent.call(userMsg('x')).subscribe({
      next: (msg) => {
        reply = msg;
      },
      complete: () => {
        completed = true;
      },
    });

    expect(reply && textOf(reply)).toBe('[sync][replaced][system]');
    expect(completed).toBe(true);
  });
});

describe('AgentBase hook results', () => {
  it.each<[string, (event: PreCallEvent) => HookResult]>([
    [
      'nothing, after changing the event in place',
      (event) => {
        event.systemPrompt = 'in place';
      },
    ],
    ['a replacement event', (event) => ({ ...event, systemPrompt: 'in place' })],
    [
      'a Promise of nothing',
      async (event) => {
        event.systemPrompt = 'in place';
      },
    ],
    ['a Promise of a replacement', async (event) => ({ ...event, systemPrompt: 'in place' })],
    [
      'an Observable whose last value counts',
      (event) => of({ ...event, systemPrompt: 'first' }, { ...event, systemPrompt: 'in place' }),
    ],
    [
      'an asynchronous Observable',
      (event) => of({ ...event, systemPrompt: 'in place' }).pipe(delay(1)),
    ],
    [
      'an empty Observable after an in-place change',
      (event) =>
        defer(() => {
          event.systemPrompt = 'in place';
          return EMPTY;
        }),
    ],
  ])('applies a hook that returns %s', async (_label, result) => {
    const agent = new PromptEcho();
    agent.addHook(onPreCall(result));
    agent.addHook(tagger('!'));
    expect(await prompt(agent)).toBe('in place!');
  });

  const failure = new Error('hook failed');
  it.each<[string, () => HookResult]>([
    [
      'throws',
      () => {
        throw failure;
      },
    ],
    ['rejects', () => Promise.reject(failure)],
    ['returns an erroring Observable', () => throwError(() => failure)],
  ])(
    'fails the call with the very error when a hook %s, after error hooks ran',
    async (_label, result) => {
      const agent = new PromptEcho();
      const errors: unknown[] = [];
      agent.addHook(onPreCall(result));
      agent.addHook({
        onEvent: (event) => void (event.type === 'error' && errors.push(event.error)),
      });

      await expect(lastValueFrom(agent.call(userMsg('x')))).rejects.toBe(failure);

      expect(errors).toEqual([failure]);
      expect(agent.calls).toBe(0);
      expect(agent.isRunning).toBe(false);
    },
  );

  it('keeps the agent callable after a failing hook', async () => {
    const agent = new PromptEcho();
    const dispose = agent.addHook(onPreCall(() => Promise.reject(new Error('once'))));
    await expect(prompt(agent)).rejects.toThrow('once');
    dispose();
    expect(await prompt(agent)).toBe('');
  });

  it('fails the call with a TypeError naming the hook when it returns an event of another type', async () => {
    const agent = new PromptEcho();
    const errors: unknown[] = [];
    agent.addHook(
      onPreCall(
        (event) => ({ type: 'postCall', agent: event.agent, reply: assistantMsg('sneaky') }),
        'mixer',
      ),
    );
    agent.addHook({
      onEvent: (event) => void (event.type === 'error' && errors.push(event.error)),
    });

    const error = await lastValueFrom(agent.call(userMsg('x'))).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(
      /Hook "mixer" returned an event of type "postCall" for a preCall event/,
    );
    expect(errors).toEqual([error]);
    expect(agent.isRunning).toBe(false);
  });

  it('fails the call with the error of a failing postCall hook', async () => {
    const agent = new PromptEcho();
    const failure = new Error('postCall broke');
    agent.addHook({
      onEvent(event) {
        if (event.type === 'postCall') throw failure;
      },
    });
    await expect(prompt(agent)).rejects.toBe(failure);
    expect(agent.isRunning).toBe(false);
  });
});
