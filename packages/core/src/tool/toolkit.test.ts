import { EMPTY, lastValueFrom, NEVER, Observable, of, throwError, toArray } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import { StateError, ToolError } from '../errors.js';
import type { JsonObject } from '../json.js';
import {
  type ToolCallRequest,
  type ToolEvent,
  type ToolExecutionContext,
  type ToolReturn,
  tool,
} from './tool.js';
import { toolErrorOf } from './toolErrorOf.js';
import { Toolkit } from './toolkit.js';

const echo = tool({
  name: 'echo',
  description: 'Echoes text.',
  parameters: z.object({ text: z.string(), times: z.number().int().default(1) }),
  execute: ({ text, times }) => text.repeat(times),
});

function make(
  name: string,
  execute: (args: Record<string, never>, ctx: ToolExecutionContext) => ToolReturn,
  timeoutMs?: number,
) {
  return tool({
    name,
    description: `${name} tool`,
    parameters: z.object({}),
    execute,
    ...(timeoutMs !== undefined && { timeoutMs }),
  });
}

/** A context whose signal counts its abort listeners, to prove runs remove theirs. */
function trackedContext(controller = new AbortController()) {
  const signal = controller.signal;
  let listeners = 0;
  const add = signal.addEventListener.bind(signal);
  const remove = signal.removeEventListener.bind(signal);
  vi.spyOn(signal, 'addEventListener').mockImplementation((...args: Parameters<typeof add>) => {
    listeners++;
    add(...args);
  });
  vi.spyOn(signal, 'removeEventListener').mockImplementation(
    (...args: Parameters<typeof remove>) => {
      listeners--;
      remove(...args);
    },
  );
  const context: ToolExecutionContext = { signal, toolCallId: 'c1' };
  return { controller, context, listeners: () => listeners };
}

function call(name: string, input: unknown = {}): ToolCallRequest {
  return { id: 'c1', name, input };
}

function run(toolkit: Toolkit, request: ToolCallRequest, context = trackedContext().context) {
  return lastValueFrom(toolkit.execute(request, context).pipe(toArray()));
}

async function resultOf(toolkit: Toolkit, request: ToolCallRequest) {
  const events = await run(toolkit, request);
  expect(events).toHaveLength(1);
  const last = events[0] as Extract<ToolEvent, { type: 'result' }>;
  return last.result;
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('Toolkit registry', () => {
  it('registers tools in order and looks them up by name', () => {
    const other = make('other', () => '');
    const toolkit = new Toolkit([echo]).register(other);
    expect(toolkit.names()).toEqual(['echo', 'other']);
    expect(toolkit.get('other')).toBe(other);
    expect(toolkit.has('echo')).toBe(true);
    expect(toolkit.has('nope')).toBe(false);
    expect(toolkit.unregister('echo')).toBe(true);
    expect(toolkit.unregister('echo')).toBe(false);
    expect(toolkit.names()).toEqual(['other']);
  });

  it('throws a ToolError naming a duplicate tool', () => {
    const toolkit = new Toolkit([echo]);
    expect(() => toolkit.register(echo)).toThrow(ToolError);
    expect(() => toolkit.register(echo)).toThrow(/"echo" is already registered/);
  });

  it('throws a ToolError when enabling a tool that does not exist', () => {
    expect(() => new Toolkit([echo]).setEnabled('ecko', false)).toThrow(
      /"ecko": no such tool.*echo/,
    );
  });
});

describe('Toolkit.schemas', () => {
  it('lists OpenAI function schemas with the real properties of zod v4 and v3 tools', () => {
    const v3 = tool({
      name: 'v3tool',
      description: 'Uses zod v3.',
      parameters: z3.object({ city: z3.string(), days: z3.number().optional() }),
      execute: () => '',
    });
    const [v4Schema, v3Schema] = new Toolkit([echo, v3]).schemas();
    expect(v4Schema).toEqual({
      type: 'function',
      function: {
        name: 'echo',
        description: 'Echoes text.',
        parameters: {
          type: 'object',
          properties: {
            text: { type: 'string' },
            times: expect.objectContaining({ type: 'integer', default: 1 }),
          },
          required: ['text'],
        },
      },
    });
    expect(v3Schema?.function.parameters).toEqual({
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'number' } },
      required: ['city'],
      additionalProperties: false,
    });
  });

  it('converts each schema once and hands out the same frozen object', () => {
    const toolkit = new Toolkit([echo]);
    const first = toolkit.schemas()[0];
    expect(new Toolkit([echo]).schemas()[0]).toBe(first);
    expect(Object.isFrozen(first?.function.parameters)).toBe(true);
  });

  it('leaves disabled tools out until they are enabled again', () => {
    const toolkit = new Toolkit([echo, make('other', () => '')]);
    toolkit.setEnabled('echo', false);
    expect(toolkit.schemas().map((s) => s.function.name)).toEqual(['other']);
    toolkit.setEnabled('echo', true);
    expect(toolkit.schemas().map((s) => s.function.name)).toEqual(['echo', 'other']);
  });
});

describe('Toolkit.extend', () => {
  it('sees the parent tools live, and keeps its own tools to itself', async () => {
    const parent = new Toolkit([echo]);
    const a = parent.extend([make('generate_response', () => 'A')]);
    const b = parent.extend([make('generate_response', () => 'B')]);
    parent.register(make('late', () => 'late'));
    expect(a.names()).toEqual(['echo', 'late', 'generate_response']);
    expect(parent.names()).toEqual(['echo', 'late']);
    expect((await resultOf(a, call('generate_response'))).output).toBe('A');
    expect((await resultOf(b, call('generate_response'))).output).toBe('B');
    expect(await resultOf(parent, call('generate_response'))).toMatchObject({ isError: true });
    expect(parent.schemas().map((s) => s.function.name)).toEqual(['echo', 'late']);
  });

  it('throws a ToolError when an extra tool clashes with a parent tool', () => {
    expect(() => new Toolkit([echo]).extend([echo])).toThrow(ToolError);
  });

  it('disables a parent tool in the child only', () => {
    const parent = new Toolkit([echo]);
    const child = parent.extend([]);
    child.setEnabled('echo', false);
    expect(child.schemas()).toEqual([]);
    expect(parent.isEnabled('echo')).toBe(true);
    parent.setEnabled('echo', false);
    child.setEnabled('echo', true);
    expect(child.isEnabled('echo')).toBe(false);
  });
});

describe('Toolkit.execute', () => {
  it('is cold: the tool runs only on subscription', async () => {
    const execute = vi.fn(() => 'ran');
    const toolkit = new Toolkit([make('t', execute)]);
    const events$ = toolkit.execute(call('t'), trackedContext().context);
    expect(execute).not.toHaveBeenCalled();
    await lastValueFrom(events$);
    expect(execute).toHaveBeenCalledOnce();
  });

  it('passes validated arguments with defaults applied and returns a string result', async () => {
    const result = await resultOf(new Toolkit([echo]), {
      id: 'x9',
      name: 'echo',
      rawArguments: '{"text":"ab"}',
    });
    expect(result).toEqual({ type: 'tool_result', id: 'x9', name: 'echo', output: 'ab' });
  });

  it('prefers input over rawArguments and treats empty rawArguments as {}', async () => {
    const toolkit = new Toolkit([echo, make('noargs', () => 'fine')]);
    const request = {
      id: 'c1',
      name: 'echo',
      input: { text: 'in' },
      rawArguments: '{"text":"raw"}',
    };
    expect((await resultOf(toolkit, request)).output).toBe('in');
    expect((await resultOf(toolkit, { id: 'c1', name: 'noargs', rawArguments: '' })).output).toBe(
      'fine',
    );
  });

  it.each<[string, () => ToolReturn, unknown]>([
    ['an empty string', () => '', ''],
    ['blocks', () => [{ type: 'text', text: 'hi' }], [{ type: 'text', text: 'hi' }]],
    ['a Promise', () => Promise.resolve('later'), 'later'],
    ['a one-value Observable', () => of('once'), 'once'],
  ])('returns a tool result for %s', async (_, execute, output) => {
    const result = await resultOf(new Toolkit([make('t', execute)]), call('t'));
    expect(result).toEqual({ type: 'tool_result', id: 'c1', name: 't', output });
  });

  it('streams every Observable value but the last as a chunk, then the result', async () => {
    const events = await run(new Toolkit([make('t', () => of('a', 'ab', 'abc'))]), call('t'));
    expect(events).toEqual([
      { type: 'chunk', output: 'a' },
      { type: 'chunk', output: 'ab' },
      { type: 'result', result: { type: 'tool_result', id: 'c1', name: 't', output: 'abc' } },
    ]);
  });

  it('answers an unknown tool with an error listing the available ones', async () => {
    const result = await resultOf(new Toolkit([echo, make('other', () => '')]), call('ecko'));
    expect(result).toMatchObject({ isError: true, name: 'ecko' });
    expect(result.output).toBe(
      'Tool "ecko" does not exist or is disabled. Available tools: echo, other.',
    );
  });

  it('answers a call to a disabled tool with an error and does not run it', async () => {
    const execute = vi.fn(() => '');
    const toolkit = new Toolkit([make('t', execute)]);
    toolkit.setEnabled('t', false);
    expect(await resultOf(toolkit, call('t'))).toMatchObject({
      isError: true,
      output: expect.stringMatching(/disabled/),
    });
    expect(execute).not.toHaveBeenCalled();
  });

  it('answers malformed JSON arguments with the parse error', async () => {
    const result = await resultOf(new Toolkit([echo]), {
      id: 'c1',
      name: 'echo',
      rawArguments: '{"text": ',
    });
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(/^Tool "echo" got arguments that are not valid JSON \(.+\)/);
  });

  it('answers JSON that is not an object', async () => {
    const result = await resultOf(new Toolkit([echo]), {
      id: 'c1',
      name: 'echo',
      rawArguments: '[1,2]',
    });
    expect(result).toMatchObject({
      isError: true,
      output: expect.stringMatching(/of type array; send a JSON object/),
    });
  });

  it('answers invalid arguments naming each bad field', async () => {
    const result = await resultOf(new Toolkit([echo]), call('echo', { times: 'x' }));
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(
      /^Tool "echo" got invalid arguments:\ntext: .+\ntimes: .+\nFix these fields/,
    );
  });

  it.each<[string, () => ToolReturn]>([
    [
      'throws',
      () => {
        throw new Error('boom');
      },
    ],
    ['rejects', () => Promise.reject(new Error('boom'))],
    ['errors its Observable', () => throwError(() => new Error('boom'))],
  ])('answers a tool that %s with its message', async (_, execute) => {
    const result = await resultOf(new Toolkit([make('t', execute)]), call('t'));
    expect(result).toMatchObject({ isError: true, output: 'Tool "t" failed: boom' });
  });

  it.each([
    ['an object', { city: 'Paris', temp: 21 }, '{"city":"Paris","temp":21}'],
    ['a number', 42, '42'],
    ['a boolean', false, 'false'],
    ['null', null, 'null'],
    ['an array that is not content blocks', [1, { a: 'b' }], '[1,{"a":"b"}]'],
  ])('sends %s returned by a tool as its JSON text', async (_, value, text) => {
    const result = await resultOf(new Toolkit([make('t', () => value)]), call('t'));
    expect(result).toEqual({ type: 'tool_result', id: 'c1', name: 't', output: text });
  });

  it('sends JSON values resolved by a Promise or streamed by an Observable as JSON text', async () => {
    const promised = await resultOf(
      new Toolkit([make('t', () => Promise.resolve({ ok: true }))]),
      call('t'),
    );
    expect(promised.output).toBe('{"ok":true}');
    const events = await run(
      new Toolkit([make('t', () => of({ step: 1 }, { step: 2 }))]),
      call('t'),
    );
    expect(events).toEqual([
      { type: 'chunk', output: '{"step":1}' },
      {
        type: 'result',
        result: { type: 'tool_result', id: 'c1', name: 't', output: '{"step":2}' },
      },
    ]);
  });

  it.each([
    ['undefined', () => undefined, /returned undefined/],
    ['a bigint', () => 10n, /returned a bigint/],
    ['a function', () => () => 1, /returned a function/],
    [
      'a circular object',
      () => {
        const loop: Record<string, unknown> = {};
        loop.self = loop;
        return loop;
      },
      /not JSON.*circular/is,
    ],
  ])(
    'answers a tool that returns %s, which has no JSON text, with an error',
    async (_, execute, message) => {
      const result = await resultOf(
        new Toolkit([make('t', execute as unknown as () => string)]),
        call('t'),
      );
      expect(result).toMatchObject({ isError: true, output: expect.stringMatching(message) });
    },
  );

  it('answers a tool whose Observable completes without a value', async () => {
    const result = await resultOf(new Toolkit([make('t', () => EMPTY)]), call('t'));
    expect(result).toMatchObject({
      isError: true,
      output: 'Tool "t" completed without producing a result.',
    });
  });

  it('times out with the toolkit timeout, aborting the tool signal', async () => {
    vi.useFakeTimers();
    let toolSignal: AbortSignal | undefined;
    const slow = make('slow', (_, ctx) => {
      toolSignal = ctx.signal;
      return NEVER;
    });
    const toolkit = new Toolkit([slow], { timeoutMs: 50 });
    const tracked = trackedContext();
    const done = run(toolkit, call('slow'), tracked.context);
    await vi.advanceTimersByTimeAsync(49);
    expect(toolSignal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const [event] = await done;
    expect(event).toMatchObject({ type: 'result', result: { isError: true } });
    expect(event?.type === 'result' && event.result.output).toMatch(
      /^Tool "slow" timed out after 50 ms/,
    );
    expect(toolSignal?.aborted).toBe(true);
    expect(tracked.listeners()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('lets a tool timeout override the toolkit timeout', async () => {
    vi.useFakeTimers();
    const toolkit = new Toolkit([make('slow', () => NEVER, 10)], { timeoutMs: 1000 });
    const done = run(toolkit, call('slow'));
    await vi.advanceTimersByTimeAsync(10);
    expect((await done)[0]).toMatchObject({
      result: { output: expect.stringMatching(/after 10 ms/) },
    });
  });

  it('answers an abort of the call signal with [interrupted], aborting the tool signal', async () => {
    let toolSignal: AbortSignal | undefined;
    const tracked = trackedContext();
    const interruptedWhileRunning = make('t', (_, ctx) => {
      toolSignal = ctx.signal;
      queueMicrotask(() => tracked.controller.abort());
      return NEVER;
    });
    const toolkit = new Toolkit([interruptedWhileRunning]);
    const [event] = await run(toolkit, call('t'), tracked.context);
    expect(event).toMatchObject({ type: 'result', result: { isError: true, name: 't' } });
    expect(event?.type === 'result' && event.result.output).toMatch(/^\[interrupted\] Tool "t"/);
    expect(toolSignal?.aborted).toBe(true);
    expect(tracked.listeners()).toBe(0);
  });

  it('does not run a tool when the call signal is already aborted', async () => {
    const execute = vi.fn(() => 'x');
    const tracked = trackedContext();
    tracked.controller.abort();
    const [event] = await run(new Toolkit([make('t', execute)]), call('t'), tracked.context);
    expect(event?.type === 'result' && event.result.output).toMatch(/^\[interrupted\]/);
    expect(execute).not.toHaveBeenCalled();
  });

  it('aborts the tool signal and runs the tool teardown on unsubscribe, leaving no listener or timer', () => {
    vi.useFakeTimers();
    let toolSignal: AbortSignal | undefined;
    const teardown = vi.fn();
    const never = (_: unknown, ctx: ToolExecutionContext) => {
      toolSignal = ctx.signal;
      return new Observable<string>(() => teardown);
    };
    const toolkit = new Toolkit([make('t', never)], { timeoutMs: 1000 });
    const tracked = trackedContext();
    const subscription = toolkit.execute(call('t'), tracked.context).subscribe();
    expect(tracked.listeners()).toBe(1);
    subscription.unsubscribe();
    expect(toolSignal?.aborted).toBe(true);
    expect(teardown).toHaveBeenCalledOnce();
    expect(tracked.listeners()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('gives a tool that reads its signal only after a timeout the aborted signal and reason', async () => {
    vi.useFakeTimers();
    let lateSignal: AbortSignal | undefined;
    const lateReader = make('late', async (_, ctx) => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      lateSignal = ctx.signal;
      return 'too late';
    });
    const done = run(new Toolkit([lateReader], { timeoutMs: 50 }), call('late'));
    await vi.advanceTimersByTimeAsync(50);
    expect((await done)[0]).toMatchObject({ result: { isError: true } });
    await vi.advanceTimersByTimeAsync(50);
    expect(lateSignal?.aborted).toBe(true);
    expect(lateSignal?.reason).toMatchObject({ name: 'TimeoutError' });
  });

  it('adds no abort listener or timer for a tool that answers synchronously', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const added = vi.spyOn(controller.signal, 'addEventListener');
    const context: ToolExecutionContext = { signal: controller.signal, toolCallId: 'c1' };
    const toolkit = new Toolkit([echo], { timeoutMs: 1000 });
    const [event] = await run(toolkit, call('echo', { text: 'a' }), context);
    expect(event).toMatchObject({ result: { output: 'a' } });
    expect(added).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('keeps the result of a synchronous tool that finished although the call signal aborted as it ran', async () => {
    const controller = new AbortController();
    const aborting = make('t', () => {
      controller.abort();
      return 'done anyway';
    });
    const context: ToolExecutionContext = { signal: controller.signal, toolCallId: 'c1' };
    const [event] = await run(new Toolkit([aborting]), call('t'), context);
    expect(event?.type === 'result' && event.result).toEqual({
      type: 'tool_result',
      id: 'c1',
      name: 't',
      output: 'done anyway',
    });
  });

  it('creates no AbortSignal for a tool that never reads its signal', async () => {
    const { context } = trackedContext();
    let created = 0;
    vi.stubGlobal(
      'AbortController',
      class extends AbortController {
        constructor() {
          super();
          created++;
        }
      },
    );
    const [event] = await run(new Toolkit([echo]), call('echo', { text: 'a' }), context);
    expect(event).toMatchObject({ result: { output: 'a' } });
    expect(created).toBe(0);
  });

  it.each<[string, () => ToolReturn]>([
    ['succeeds', () => 'ok'],
    ['fails', () => Promise.reject(new Error('x'))],
  ])('removes its abort listener and timer when the tool %s', async (_, execute) => {
    vi.useFakeTimers();
    const tracked = trackedContext();
    await run(new Toolkit([make('t', execute)], { timeoutMs: 60_000 }), call('t'), tracked.context);
    expect(tracked.listeners()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('Toolkit state', () => {
  it('saves and restores the disabled tools', () => {
    const toolkit = new Toolkit([echo]);
    toolkit.setEnabled('echo', false);
    const state = toolkit.stateDict();
    expect(state).toEqual({ version: 1, disabled: ['echo'] });
    const fresh = new Toolkit([echo]);
    fresh.loadStateDict(JSON.parse(JSON.stringify(state)) as JsonObject);
    expect(fresh.isEnabled('echo')).toBe(false);
    expect(JSON.stringify(fresh.stateDict())).toBe(JSON.stringify(state));
  });

  it('keeps names of tools registered later, which then start disabled', () => {
    const toolkit = new Toolkit();
    toolkit.loadStateDict({ version: 1, disabled: ['echo'] });
    toolkit.register(echo);
    expect(toolkit.schemas()).toEqual([]);
  });

  it.each<[JsonObject, string]>([
    [{ version: 2, disabled: [] }, 'version'],
    [{ version: 1 }, 'disabled'],
    [{ version: 1, disabled: ['a', 3] }, 'disabled[1]'],
  ])('rejects invalid state %j at %s without changing anything', (state, path) => {
    const toolkit = new Toolkit([echo]);
    toolkit.setEnabled('echo', false);
    expect(() => toolkit.loadStateDict(state)).toThrow(StateError);
    try {
      toolkit.loadStateDict(state);
    } catch (error) {
      expect((error as StateError).path).toBe(path);
    }
    expect(toolkit.stateDict()).toEqual({ version: 1, disabled: ['echo'] });
  });
});

describe('Toolkit.resultLimit', () => {
  const big = tool({
    name: 'big',
    description: 'Returns a lot.',
    parameters: z.object({}),
    execute: () => 'x',
    maxResultChars: 200_000,
  });

  it('is 50,000 characters by default, also for a tool it does not know', () => {
    const toolkit = new Toolkit([echo]);
    expect(toolkit.resultLimit('echo')).toBe(50_000);
    expect(toolkit.resultLimit('nope')).toBe(50_000);
  });

  it("takes the toolkit's maxResultChars, and a tool's own limit over it", () => {
    const toolkit = new Toolkit([echo, big], { maxResultChars: 1_000 });
    expect(toolkit.resultLimit('echo')).toBe(1_000);
    expect(toolkit.resultLimit('big')).toBe(200_000);
  });

  it('passes the limit on to an extended toolkit', () => {
    const child = new Toolkit([echo], { maxResultChars: 1_000 }).extend([big]);
    expect(child.resultLimit('echo')).toBe(1_000);
    expect(child.resultLimit('big')).toBe(200_000);
  });

  it('accepts Infinity and rejects a limit that is not a positive whole number', () => {
    expect(new Toolkit([], { maxResultChars: Number.POSITIVE_INFINITY }).resultLimit('x')).toBe(
      Number.POSITIVE_INFINITY,
    );
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(() => new Toolkit([], { maxResultChars: bad })).toThrow(/maxResultChars/);
      expect(() =>
        tool({
          name: 't',
          description: '',
          parameters: z.object({}),
          execute: () => '',
          maxResultChars: bad,
        }),
      ).toThrow(/tool\("t"\): maxResultChars/);
    }
  });
});

/** The events `startExecute` sends to a sink, collected until its `complete` (none after it). */
function started(toolkit: Toolkit, request: ToolCallRequest, context: ToolExecutionContext) {
  const events: ToolEvent[] = [];
  let completed = false;
  let teardown: ReturnType<Toolkit['startExecute']>;
  const done = new Promise<ToolEvent[]>((resolve) => {
    teardown = toolkit.startExecute(request, context, {
      next: (event) => {
        expect(completed).toBe(false);
        events.push(event);
      },
      error: (error: unknown) => {
        throw error;
      },
      complete: () => {
        expect(completed).toBe(false);
        completed = true;
        resolve(events);
      },
    });
  });
  return { done, teardown: () => teardown, events };
}

describe('Toolkit.startExecute (the run without an Observable around it)', () => {
  const boom = new Error('boom');
  const cases: [string, () => Toolkit, ToolCallRequest][] = [
    ['a sync result', () => new Toolkit([echo]), call('echo', { text: 'a', times: 2 })],
    ['chunks then a result', () => new Toolkit([make('t', () => of('a', 'ab'))]), call('t')],
    ['a resolved Promise', () => new Toolkit([make('t', async () => ({ ok: 1 }))]), call('t')],
    [
      'a throw',
      () =>
        new Toolkit([
          make('t', () => {
            throw boom;
          }),
        ]),
      call('t'),
    ],
    ['a rejected Promise', () => new Toolkit([make('t', () => Promise.reject(boom))]), call('t')],
    [
      'an Observable error',
      () => new Toolkit([make('t', () => throwError(() => boom))]),
      call('t'),
    ],
    ['a bad return value', () => new Toolkit([make('t', () => undefined as never)]), call('t')],
    ['a timeout', () => new Toolkit([make('t', () => NEVER, 5)]), call('t')],
    ['an unknown tool', () => new Toolkit([echo]), call('ecko')],
    ['invalid arguments', () => new Toolkit([echo]), call('echo', { times: 'x' })],
    ['malformed JSON', () => new Toolkit([echo]), { id: 'c1', name: 'echo', rawArguments: '{' }],
  ];

  it.each(cases)('sends what execute() emits for %s', async (_, toolkit, request) => {
    const expected = await run(toolkit(), request);
    const tracked = trackedContext();
    const events = await started(toolkit(), request, tracked.context).done;
    expect(events).toEqual(expected);
    const last = events.at(-1);
    const error = last?.type === 'result' ? toolErrorOf(last.result) : undefined;
    const expectedLast = expected.at(-1);
    expect(error).toBe(
      expectedLast?.type === 'result' ? toolErrorOf(expectedLast.result) : undefined,
    );
    expect(tracked.listeners()).toBe(0);
  });

  it('keeps the thrown or rejected error on the result', async () => {
    const thrown = new Toolkit([
      make('t', () => {
        throw boom;
      }),
    ]);
    const [fromThrow] = await started(thrown, call('t'), trackedContext().context).done;
    expect(fromThrow?.type === 'result' && toolErrorOf(fromThrow.result)).toBe(boom);
    const rejected = new Toolkit([make('t', () => Promise.reject(boom))]);
    const [fromReject] = await started(rejected, call('t'), trackedContext().context).done;
    expect(fromReject?.type === 'result' && toolErrorOf(fromReject.result)).toBe(boom);
  });

  it('answers an abort of the call signal with [interrupted], aborting the tool signal', async () => {
    let toolSignal: AbortSignal | undefined;
    const tracked = trackedContext();
    const toolkit = new Toolkit([
      make('t', (_, ctx) => {
        toolSignal = ctx.signal;
        return new Promise<string>(() => undefined);
      }),
    ]);
    const { done } = started(toolkit, call('t'), tracked.context);
    expect(tracked.listeners()).toBe(1);
    tracked.controller.abort();
    const [event] = await done;
    expect(event?.type === 'result' && event.result).toMatchObject({
      isError: true,
      output: expect.stringMatching(/^\[interrupted\] Tool "t"/),
    });
    expect(toolSignal?.aborted).toBe(true);
    expect(tracked.listeners()).toBe(0);
  });

  it('stops the run when its teardown runs: tool signal aborted, nothing sent after, no listener or timer', async () => {
    vi.useFakeTimers();
    let toolSignal: AbortSignal | undefined;
    let resolveTool: (value: string) => void = () => undefined;
    const toolkit = new Toolkit([
      make('t', (_, ctx) => {
        toolSignal = ctx.signal;
        return new Promise<string>((resolve) => {
          resolveTool = resolve;
        });
      }),
    ]);
    const tracked = trackedContext();
    const { teardown, events } = started(toolkit, call('t'), tracked.context);
    const stop = teardown();
    expect(typeof stop).toBe('function');
    (stop as () => void)();
    expect(toolSignal?.aborted).toBe(true);
    resolveTool('late');
    await vi.advanceTimersByTimeAsync(10);
    expect(events).toEqual([]);
    expect(tracked.listeners()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('runs a toolkit whose execute was overridden through that execute', async () => {
    class Logged extends Toolkit {
      override execute(request: ToolCallRequest, _context: ToolExecutionContext) {
        return of<ToolEvent>({
          type: 'result',
          result: { type: 'tool_result', id: request.id, name: request.name, output: 'logged' },
        });
      }
    }
    const events = await started(
      new Logged([echo]),
      call('echo', { text: 'a' }),
      trackedContext().context,
    ).done;
    expect(events).toEqual([
      { type: 'result', result: { type: 'tool_result', id: 'c1', name: 'echo', output: 'logged' } },
    ]);
    const replaced = new Toolkit([echo]);
    replaced.execute = () =>
      of<ToolEvent>({
        type: 'result',
        result: { type: 'tool_result', id: 'c1', name: 'echo', output: 'replaced' },
      });
    const [event] = await started(replaced, call('echo', { text: 'a' }), trackedContext().context)
      .done;
    expect(event).toMatchObject({ result: { output: 'replaced' } });
  });

  it('sends the error of an overridden execute to the sink', () => {
    const broken = new Error('broken toolkit');
    class Broken extends Toolkit {
      override execute() {
        return throwError(() => broken);
      }
    }
    const errors: unknown[] = [];
    new Broken([echo]).startExecute(call('echo', { text: 'a' }), trackedContext().context, {
      next: () => expect.unreachable(),
      error: (error) => errors.push(error),
      complete: () => expect.unreachable(),
    });
    expect(errors).toEqual([broken]);
  });
});
