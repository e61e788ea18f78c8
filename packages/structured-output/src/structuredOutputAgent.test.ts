import {
  InterruptedError,
  InvalidArgumentError,
  type JsonObject,
  type Msg,
  StructuredOutputError,
  ToolError,
  Toolkit,
  textOf,
  tool,
  userMsg,
} from '@rxagent/core';
import { ScriptedChatModel, type ScriptedReply, type ScriptedTurn } from '@rxagent/core/testing';
import { firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  StructuredOutputAgent,
  type StructuredOutputAgentOptions,
} from './structuredOutputAgent.js';
import { StructuredOutputReminder } from './structuredOutputReminder.js';

const Person = z.object({
  name: z.string(),
  age: z.number().int(),
  nick: z.string().default('none'),
});
const ADA = { response: { name: 'Ada', age: 36 } };

function respond(args: JsonObject | string, id?: string): ScriptedTurn {
  return {
    toolCalls: [{ ...(id !== undefined && { id }), name: 'generate_response', arguments: args }],
  };
}

function setup(script: ScriptedReply[], options: Partial<StructuredOutputAgentOptions> = {}) {
  const model = new ScriptedChatModel(script);
  const agent = new StructuredOutputAgent({
    name: 'bot',
    sysPrompt: 'Extract.',
    model,
    ...options,
  });
  return { model, agent };
}

function transcript(messages: readonly Msg[]): string[] {
  return messages.map(
    (msg) =>
      `${msg.role}:${msg.content.map((b) => (b.type === 'text' ? b.text : 'name' in b ? `${b.type}(${b.name})` : b.type)).join('|')}`,
  );
}

async function failure(promise: Promise<unknown>): Promise<StructuredOutputError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StructuredOutputError);
  return error as StructuredOutputError;
}

describe('StructuredOutputAgent options', () => {
  it.each([
    [{ reminder: 'shout' as never }, /reminder must be StructuredOutputReminder/],
    [{ maxStructuredRetries: -1 }, /maxStructuredRetries must be a non-negative integer/],
    [{ maxStructuredRetries: 1.5 }, /maxStructuredRetries/],
  ])('rejects %j with an InvalidArgumentError', (options, message) => {
    expect(() => setup([], options)).toThrow(InvalidArgumentError);
    expect(() => setup([], options)).toThrow(message);
  });

  it('defaults to TOOL_CHOICE reminders and 3 retries', () => {
    const { agent } = setup([]);

    expect(agent.reminder).toBe(StructuredOutputReminder.TOOL_CHOICE);
    expect(agent.maxStructuredRetries).toBe(3);
  });
});

describe('StructuredOutputAgent', () => {
  it('behaves as a ReActAgent without structuredOutput: a text reply, no generate_response', async () => {
    const { model, agent } = setup(['Hello.']);

    const reply = await lastValueFrom(agent.call(userMsg('Hi')));

    expect(textOf(reply)).toBe('Hello.');
    expect(reply.metadata['generateReason']).toBe('stop');
    expect(reply.metadata).not.toHaveProperty('response');
    expect(model.requests[0]?.tools).toBeUndefined();
  });

  it('emits the typed response once from callStructured, then completes', async () => {
    const { agent } = setup([respond(ADA)]);

    const values = await lastValueFrom(
      agent.callStructured(userMsg('Ada, 36'), Person).pipe(toArray()),
    );

    expectTypeOf(values).toEqualTypeOf<Array<{ name: string; age: number; nick: string }>>();
    expect(values).toEqual([{ name: 'Ada', age: 36, nick: 'none' }]);
  });

  it('sums the usage of every request of the call into the reply', async () => {
    const usage = { inputTokens: 10, outputTokens: 4 };
    const { agent } = setup([
      { text: 'Ada.', usage },
      { ...respond({ response: {} }), usage },
      { ...respond(ADA), usage },
    ]);

    const reply = await lastValueFrom(agent.call(userMsg('Ada'), { structuredOutput: Person }));

    expect(reply.metadata['usage']).toEqual({ inputTokens: 30, outputTokens: 12, totalTokens: 42 });
  });

  it("keeps the model's thinking of the accepted generate_response turn in the reply and memory", async () => {
    const { agent } = setup([
      { thinking: 'First try.', ...respond({ response: { name: 'Ada' } }) },
      { thinking: 'The text gives a name and an age.', ...respond(ADA) },
    ]);

    const reply = await lastValueFrom(agent.call(userMsg('Ada, 36'), { structuredOutput: Person }));

    expect(reply.content).toEqual([
      { type: 'thinking', thinking: 'The text gives a name and an age.' },
      { type: 'text', text: JSON.stringify({ name: 'Ada', age: 36, nick: 'none' }) },
    ]);
    expect(agent.memory.messages().at(-1)?.content).toEqual(reply.content);
    expect(transcript(agent.memory.messages())).toEqual([
      'user:Ada, 36',
      `assistant:thinking|${textOf(reply)}`,
    ]);
  });

  it('accepts the valid one of two generate_response calls in a reply', async () => {
    const { agent } = setup([
      {
        toolCalls: [
          { id: 'bad', name: 'generate_response', arguments: { response: { name: 'Ada' } } },
          { id: 'good', name: 'generate_response', arguments: ADA },
        ],
      },
    ]);

    const reply = await lastValueFrom(agent.call(userMsg('Ada'), { structuredOutput: Person }));

    expect(reply.metadata['response']).toEqual({ name: 'Ada', age: 36, nick: 'none' });
    expect(transcript(agent.memory.messages())).toEqual(['user:Ada', `assistant:${textOf(reply)}`]);
  });

  it('does not store an empty plain-text reply as a draft', async () => {
    const { model, agent } = setup(['', respond(ADA)], {
      reminder: StructuredOutputReminder.PROMPT,
    });

    await lastValueFrom(agent.call(userMsg('Ada'), { structuredOutput: Person }));

    expect(model.requests[1]?.messages.map((m) => m.role)).toEqual(['system', 'user', 'user']);
  });

  describe('failures', () => {
    it('fails on the first plain-text answer when maxStructuredRetries is 0, after one request', async () => {
      const { model, agent } = setup(['Ada is 36.'], { maxStructuredRetries: 0 });

      const error = await failure(
        lastValueFrom(agent.call(userMsg('Ada'), { structuredOutput: Person })),
      );

      expect(model.requests).toHaveLength(1);
      expect(error.details.lastProblem).toMatch(
        /plain text instead of calling generate_response: "Ada is 36."/,
      );
      expect(error.message).toContain(error.details.lastProblem);
      expect(transcript(agent.memory.messages())).toEqual(['user:Ada']);
    });

    it('fails after maxStructuredRetries + 1 invalid calls with the validation issues of the last one', async () => {
      const bad = respond({ response: { name: 'Ada', age: 'old' } });
      const { model, agent } = setup([bad, bad, bad]);
      const extra = { text: 'never requested' };
      model.enqueue(bad, extra);

      const error = await failure(
        lastValueFrom(agent.call(userMsg('Ada'), { structuredOutput: Person })),
      );

      expect(model.requests).toHaveLength(4);
      expect(error.details.lastProblem).toMatch(/generate_response was rejected: .*response\.age/s);
      expect(error.details.issues).toEqual([{ path: 'response.age', message: expect.any(String) }]);
      expect(transcript(agent.memory.messages())).toEqual(['user:Ada']);
    });

    it('names malformed JSON arguments as the problem, without validation issues', async () => {
      const { agent } = setup([respond('{"response": {')], { maxStructuredRetries: 0 });

      const error = await failure(
        lastValueFrom(agent.call(userMsg('Ada'), { structuredOutput: Person })),
      );

      expect(error.details.lastProblem).toMatch(/generate_response was rejected: .*not valid JSON/);
      expect(error.details.issues).toBeUndefined();
      expect(transcript(agent.memory.messages())).toEqual(['user:Ada']);
    });

    it('fails when maxIters runs out before generate_response, keeping memory valid', async () => {
      const lookup = tool({
        name: 'lookup',
        description: 'Look up.',
        parameters: z.object({}),
        execute: () => 'data',
      });
      const { agent } = setup(
        [{ toolCalls: [{ name: 'lookup', arguments: {} }] }, 'Summary in text.'],
        {
          maxIters: 1,
          toolkit: new Toolkit([lookup]),
        },
      );

      const error = await failure(
        lastValueFrom(agent.call(userMsg('Ada'), { structuredOutput: Person })),
      );

      expect(error.details.lastProblem).toMatch(/all 1 reasoning steps \(maxIters\)/);
      expect(transcript(agent.memory.messages())).toEqual([
        'user:Ada',
        'assistant:tool_use(lookup)',
        'tool:tool_result(lookup)',
        'assistant:Summary in text.',
      ]);
    });

    it('fails naming the budget when it is spent before generate_response, memory valid', async () => {
      const lookup = tool({
        name: 'lookup',
        description: 'Look up.',
        parameters: z.object({}),
        execute: () => 'data',
      });
      const { agent } = setup(
        [
          {
            toolCalls: [{ name: 'lookup', arguments: {} }],
            usage: { inputTokens: 90, outputTokens: 10 },
          },
        ],
        { toolkit: new Toolkit([lookup]) },
      );

      const error = await failure(
        lastValueFrom(
          agent.call(userMsg('Ada'), { structuredOutput: Person, budget: { maxTokens: 100 } }),
        ),
      );

      expect(error.details.lastProblem).toMatch(
        /budget was spent before generate_response was called \(\[budget\].*100 tokens used of maxTokens 100/,
      );
      expect(transcript(agent.memory.messages())).toEqual([
        'user:Ada',
        'assistant:tool_use(lookup)',
        'tool:tool_result(lookup)',
        expect.stringMatching(/^assistant:\[budget\]/),
      ]);
    });

    it('fails when a hook stops the call on a plain-text reply', async () => {
      const { agent } = setup(['Ada.']);
      agent.addHook({
        onEvent: (event) => (event.type === 'postReasoning' ? event.stopAgent() : undefined),
      });

      const error = await failure(
        lastValueFrom(agent.call(userMsg('Ada'), { structuredOutput: Person })),
      );

      expect(error.details.lastProblem).toMatch(/generateReason "stop"/);
    });

    it('rejects an unusable schema before storing anything or sending a request', async () => {
      const { model, agent } = setup([]);

      await expect(
        lastValueFrom(
          agent.call(userMsg('When?'), { structuredOutput: z.object({ at: z.date() }) }),
        ),
      ).rejects.toThrow(InvalidArgumentError);
      expect(agent.memory.size).toBe(0);
      expect(model.requests).toHaveLength(0);
    });

    it('rejects a toolkit that already has a generate_response tool, leaving memory untouched', async () => {
      const own = tool({
        name: 'generate_response',
        description: 'x',
        parameters: z.object({}),
        execute: () => 'x',
      });
      const { agent } = setup([], { toolkit: new Toolkit([own]) });

      await expect(
        lastValueFrom(agent.call(userMsg('Ada'), { structuredOutput: Person })),
      ).rejects.toThrow(ToolError);
      expect(agent.memory.size).toBe(0);
    });
  });

  describe('pauses and cancellation', () => {
    it('passes a hook pause through, and the resuming call completes the response', async () => {
      const { agent } = setup([respond(ADA, 'g0')]);
      const remove = agent.addHook({
        onEvent: (event) => (event.type === 'postReasoning' ? event.stopAgent() : undefined),
      });

      const paused = await lastValueFrom(agent.call(userMsg('Ada'), { structuredOutput: Person }));
      remove();
      const response = await lastValueFrom(agent.callStructured(undefined, Person));

      expect(paused.metadata['generateReason']).toBe('tool_calls_stopped');
      expect(response).toEqual({ name: 'Ada', age: 36, nick: 'none' });
      expect(transcript(agent.memory.messages())).toEqual([
        'user:Ada',
        `assistant:${JSON.stringify(response)}`,
      ]);
    });

    it('errors from callStructured with StructuredOutputError when a hook pauses the call', async () => {
      const { agent } = setup([respond(ADA)]);
      agent.addHook({
        onEvent: (event) => (event.type === 'postReasoning' ? event.stopAgent() : undefined),
      });

      await failure(lastValueFrom(agent.callStructured(userMsg('Ada'), Person)));
    });

    it('leaves no reminder behind when interrupted, and callStructured errors with InterruptedError', async () => {
      const { agent } = setup(['Ada.', respond(ADA)], {
        reminder: StructuredOutputReminder.PROMPT,
      });
      let requests = 0;
      agent.addHook({
        onEvent: (event) => {
          if (event.type === 'preReasoning' && ++requests === 2) agent.interrupt();
        },
      });

      await expect(lastValueFrom(agent.callStructured(userMsg('Ada'), Person))).rejects.toThrow(
        InterruptedError,
      );

      expect(transcript(agent.memory.messages())).toEqual([
        'user:Ada',
        expect.stringMatching(/^assistant:.*interrupted/),
      ]);
    });

    it('removes reminders, drafts and generate_response calls when the caller unsubscribes', async () => {
      const { agent } = setup(
        ['Ada.', respond({ response: {} }), { ...respond(ADA), delayMs: 60_000 }],
        {
          reminder: StructuredOutputReminder.PROMPT,
        },
      );
      let requests = 0;
      const third = new Promise<void>((resolve) => {
        agent.addHook({
          onEvent: (event) => {
            if (event.type === 'preReasoning' && ++requests === 3) resolve();
          },
        });
      });
      const subscription = agent.call(userMsg('Ada'), { structuredOutput: Person }).subscribe();
      await third;
      expect(transcript(agent.memory.messages())).toHaveLength(5);

      subscription.unsubscribe();

      expect(agent.isRunning).toBe(false);
      expect(transcript(agent.memory.messages())).toEqual(['user:Ada']);
    });
  });

  it('resolves firstValueFrom of a structured call to the reply carrying the response', async () => {
    const { agent } = setup([respond(ADA)]);

    const reply = await firstValueFrom(agent.call(userMsg('Ada'), { structuredOutput: Person }));

    expect(reply.metadata).toMatchObject({
      generateReason: 'structured_output',
      response: { name: 'Ada' },
    });
  });
});
