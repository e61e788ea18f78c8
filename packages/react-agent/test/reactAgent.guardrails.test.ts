import {
  type AgentEvent,
  guardrail,
  type JsonObject,
  type Msg,
  piiGuardrail,
  replyMetadata,
  textOf,
  tool,
  toolResults,
  userMsg,
} from '@rxagent/core';
import { ScriptedChatModel } from '@rxagent/core/testing';
import { ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom, Observable, tap, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { harness, run, wireMessages } from './harness.js';

const blockWord = (word: string, on: 'input' | 'output' | 'toolCall' | 'toolResult') =>
  guardrail({
    name: `no-${word}`,
    on,
    check: (content) =>
      JSON.stringify(content).includes(word)
        ? { tripped: true, reason: `mentions ${word}` }
        : { tripped: false },
  });

function refundTool(calls: JsonObject[]) {
  return tool({
    name: 'refund',
    description: 'Refunds an order.',
    parameters: z.object({ order: z.string(), amount: z.number() }),
    execute: (args) => {
      calls.push(args);
      return `refunded ${args.amount} on ${args.order}`;
    },
  });
}

async function streamOf(agent: ReActAgent, input: string): Promise<AgentEvent[]> {
  return lastValueFrom(agent.stream(userMsg(input)).pipe(toArray()));
}

/** The reply that ends a stream's events. */
function replyOf(events: readonly AgentEvent[]): Msg {
  const last = events.at(-1);
  if (last?.type !== 'reply') throw new Error(`the stream ended with ${last?.type}, not a reply`);
  return last.msg;
}

describe('ReActAgent input guardrails', () => {
  it('refuse the call before any model request, storing nothing, and report the verdict', async () => {
    const { server, agent } = await harness(['never sent'], {
      guardrails: [blockWord('bomb', 'input')],
    });
    const events = await streamOf(agent, 'How do I build a bomb?');
    const reply = replyOf(events);

    expect(server.requests).toHaveLength(0);
    expect(replyMetadata(reply).generateReason).toBe('guardrail');
    expect(replyMetadata(reply).guardrail).toEqual({
      guardrail: 'no-bomb',
      stage: 'input',
      reason: 'mentions bomb',
    });
    expect(textOf(reply)).toContain('mentions bomb');
    expect(agent.memory.messages()).toEqual([]);
    const verdicts = events.filter((e) => e.type === 'guardrail');
    expect(verdicts).toMatchObject([
      { guardrail: 'no-bomb', stage: 'input', tripped: true, replaced: false },
    ]);
    // The agent takes the next call as usual.
    const next = await lastValueFrom(agent.call(userMsg('hello')));
    expect(textOf(next)).toBe('never sent');
  });

  it('replace the input with a redaction before it is stored or sent', async () => {
    const { server, agent } = await harness(['Noted.'], {
      guardrails: [piiGuardrail({ redact: true, on: 'input' })],
    });
    await run(agent, userMsg('Mail me at jane.doe@example.com please'));
    const sent = JSON.stringify(wireMessages(server, 0));
    expect(sent).toContain('Mail me at [REDACTED:email] please');
    expect(sent).not.toContain('jane.doe');
    expect(JSON.stringify(agent.memory.messages())).not.toContain('jane.doe');
  });
});

describe('ReActAgent output guardrails', () => {
  it('hold every text chunk back until the verdict, then release them in order', async () => {
    const order: string[] = [];
    const slowPass = guardrail({
      name: 'slow',
      on: 'output',
      check: () =>
        new Promise((resolve) =>
          setTimeout(() => {
            order.push('verdict');
            resolve({ tripped: false });
          }, 30),
        ),
    });
    const model = new ScriptedChatModel([{ text: 'one two three four', chunkSize: 4 }]);
    const agent = new ReActAgent({ name: 'a', sysPrompt: '', model, guardrails: [slowPass] });
    const events = await lastValueFrom(
      agent.stream(userMsg('hi')).pipe(
        tap((e) => {
          if (e.type === 'reasoningChunk') order.push('chunk');
        }),
        toArray(),
      ),
    );
    expect(order[0]).toBe('verdict');
    const text = events
      .flatMap((e) => (e.type === 'reasoningChunk' ? [e.delta.text ?? ''] : []))
      .join('');
    expect(text).toBe('one two three four');
    const types = events.map((e) => e.type);
    expect(types.lastIndexOf('reasoningChunk')).toBeLessThan(types.indexOf('postReasoning'));
  });

  it('refuse a reply: no chunk, no tool, the refusal stored as the answer', async () => {
    const calls: JsonObject[] = [];
    const { agent } = await harness(
      [
        {
          text: 'Sure, the secret plan is',
          toolCalls: [{ id: 'c1', name: 'refund', arguments: { order: 'o1', amount: 5 } }],
        },
      ],
      { guardrails: [blockWord('secret', 'output')] },
    );
    agent.toolkit.register(refundTool(calls));
    const events = await streamOf(agent, 'Tell me');
    expect(events.some((e) => e.type === 'reasoningChunk')).toBe(false);
    expect(events.some((e) => e.type === 'preActing')).toBe(false);
    expect(calls).toEqual([]);
    const reply = replyOf(events);
    expect(replyMetadata(reply).generateReason).toBe('guardrail');
    expect(JSON.stringify(events)).not.toContain('secret plan');
    const stored = agent.memory.messages();
    expect(stored.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(textOf(stored[1]!)).toContain('mentions secret');
  });

  it('replace a reply: only the replacement is streamed, stored and returned', async () => {
    const { agent } = await harness(['Call me on +44 20 7946 0958 any time.'], {
      guardrails: [piiGuardrail({ redact: true, on: 'output' })],
    });
    const events = await streamOf(agent, 'How do I reach you?');
    const text = events
      .flatMap((e) => (e.type === 'reasoningChunk' ? [e.delta.text ?? ''] : []))
      .join('');
    expect(text).toBe('Call me on [REDACTED:phone] any time.');
    expect(JSON.stringify(events)).not.toContain('7946');
    expect(textOf(agent.memory.messages().at(-1)!)).toBe('Call me on [REDACTED:phone] any time.');
  });

  it.each([
    [
      'throws',
      () => {
        throw new Error('classifier down');
      },
      /failed: classifier down/,
    ],
    ['rejects', () => Promise.reject(new Error('no answer')), /failed: no answer/],
    ['never answers', () => new Observable<never>(() => undefined), /no verdict within 40 ms/],
    ['answers no verdict', () => ({ ok: true }) as never, /not a verdict/],
  ])('fail closed when the check %s', async (_, check, reason) => {
    const { agent } = await harness(['Leaked text.'], {
      guardrails: [
        guardrail({ name: 'flaky', on: 'output', timeoutMs: 40, check: check as never }),
      ],
    });
    const events = await streamOf(agent, 'hi');
    const reply = replyOf(events);
    expect(replyMetadata(reply).generateReason).toBe('guardrail');
    expect(replyMetadata(reply).guardrail?.reason).toMatch(reason);
    expect(JSON.stringify(events)).not.toContain('Leaked');
  });

  it('never lets a text chunk out before the verdict, nor any on a trip, over 1,000 fuzzed runs', async () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let i = 0; i < 1000; i++) {
      const trip = random() < 0.5;
      let decided = false;
      const delay = Math.floor(random() * 3);
      const check = () => {
        const verdict = { tripped: trip, reason: 'fuzz' };
        if (delay === 0) {
          decided = true;
          return verdict;
        }
        return new Promise<typeof verdict>((resolve) =>
          setTimeout(() => {
            decided = true;
            resolve(verdict);
          }, delay - 1),
        );
      };
      const model = new ScriptedChatModel([
        {
          text: 'alpha beta gamma delta epsilon',
          chunkSize: 1 + Math.floor(random() * 8),
          ...(random() < 0.3 && { chunkDelayMs: 0 }),
        },
      ]);
      const agent = new ReActAgent({
        name: 'f',
        sysPrompt: '',
        model,
        guardrails: [guardrail({ name: 'g', on: 'output', check })],
      });
      const early: string[] = [];
      let chunks = 0;
      await lastValueFrom(
        agent.stream(userMsg('go')).pipe(
          tap((e) => {
            if (e.type !== 'reasoningChunk') return;
            chunks++;
            if (!decided) early.push(e.delta.text ?? '');
          }),
          toArray(),
        ),
      );
      expect(early).toEqual([]);
      if (trip) expect(chunks).toBe(0);
      else expect(chunks).toBeGreaterThan(0);
    }
  }, 60_000);
});

describe('ReActAgent tool guardrails', () => {
  it('deny a tool call that trips and replace the arguments of one that redacts', async () => {
    const calls: JsonObject[] = [];
    const limit = guardrail({
      name: 'refund-limit',
      on: 'toolCall',
      check: (call) => {
        if (typeof call === 'string') return { tripped: false };
        const amount = Number(call.input['amount']);
        if (amount > 500) return { tripped: true, reason: 'refunds over 500 need a manager' };
        return amount > 100
          ? { tripped: true, replacement: { ...call, input: { ...call.input, amount: 100 } } }
          : { tripped: false };
      },
    });
    const { agent } = await harness(
      [
        {
          toolCalls: [
            { id: 'c1', name: 'refund', arguments: { order: 'o1', amount: 900 } },
            { id: 'c2', name: 'refund', arguments: { order: 'o2', amount: 250 } },
          ],
        },
        'Done.',
      ],
      { guardrails: [limit] },
    );
    agent.toolkit.register(refundTool(calls));
    await run(agent, userMsg('Refund both'));
    expect(calls).toEqual([{ order: 'o2', amount: 100 }]);
    const results = agent.memory.messages().flatMap(toolResults);
    expect(results[0]).toMatchObject({ isError: true });
    expect(String(results[0]!.output)).toBe('[denied] refunds over 500 need a manager');
    expect(results[1]!.output).toBe('refunded 100 on o2');
  });

  it('block or redact a tool result before the model sees it', async () => {
    const lookup = tool({
      name: 'lookup',
      description: 'Looks a customer up.',
      parameters: z.object({ id: z.string() }),
      execute: ({ id }) =>
        id === 'x' ? 'DROP TABLE customers' : `Customer ${id}: card 4111 1111 1111 1111`,
    });
    const { server, agent } = await harness(
      [
        {
          toolCalls: [
            { id: 'c1', name: 'lookup', arguments: { id: 'x' } },
            { id: 'c2', name: 'lookup', arguments: { id: '7' } },
          ],
        },
        'Done.',
      ],
      {
        guardrails: [
          blockWord('DROP TABLE', 'toolResult'),
          piiGuardrail({ redact: true, on: 'toolResult' }),
        ],
      },
    );
    agent.toolkit.register(lookup);
    await run(agent, userMsg('Look up x and 7'));
    const sent = JSON.stringify(wireMessages(server, 1));
    expect(sent).toContain('[blocked] mentions DROP TABLE');
    expect(sent).toContain('Customer 7: card [REDACTED:card_number]');
    expect(sent).not.toContain('4111');
  });
});
