import {
  context,
  ProxyTracerProvider,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { AlwaysOffSampler, BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import {
  type AgentBase,
  fanoutPipeline,
  msgHub,
  sequentialPipeline,
  Toolkit,
  tool,
  toolDecisions,
  userMsg,
} from '@rxagent/core';
import { ScriptedChatModel, type ScriptedReply } from '@rxagent/core/testing';
import { type OtelHookOptions, otelHook } from '@rxagent/otel';
import { FallbackChatModel, ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startTracing, type TestTracing } from './tracing.js';

const weather = tool({
  name: 'get_weather',
  description: 'Weather for a city.',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `Sunny in ${city}.`,
});

function agentWith(
  tracing: TestTracing,
  script: ScriptedReply[],
  options: OtelHookOptions & { name?: string; tools?: Toolkit } = {},
): ReActAgent {
  const { name = 'assistant', tools, ...hookOptions } = options;
  return new ReActAgent({
    name,
    sysPrompt: 'You are helpful.',
    model: new ScriptedChatModel(script, { modelName: 'gpt-test' }),
    toolkit: tools ?? new Toolkit([weather]),
    hooks: [otelHook({ tracer: tracing.provider.getTracer('test'), ...hookOptions })],
  });
}

const ask = (agent: AgentBase, text: string) => lastValueFrom(agent.call(userMsg(text)));

describe('otelHook', () => {
  let tracing: TestTracing;
  beforeEach(() => {
    tracing = startTracing();
  });
  afterEach(() => tracing.dispose());

  it('records invoke_agent, chat and execute_tool spans, tools and requests under the call', async () => {
    const agent = agentWith(tracing, [
      {
        toolCalls: [{ id: 'call_w', name: 'get_weather', arguments: { city: 'Paris' } }],
        usage: { inputTokens: 11, outputTokens: 4 },
      },
      { text: 'Sunny.', usage: { inputTokens: 30, outputTokens: 2 } },
    ]);
    await ask(agent, 'Weather in Paris?');

    expect(tracing.spans().map((span) => span.name)).toEqual([
      'chat gpt-test',
      'execute_tool get_weather',
      'chat gpt-test',
      'invoke_agent assistant',
    ]);
    const call = tracing.span('invoke_agent assistant');
    expect(tracing.parentName(call)).toBe('(root)');
    for (const child of tracing.spans().slice(0, 3)) {
      expect(tracing.parentName(child)).toBe('invoke_agent assistant');
      expect(child.spanContext().traceId).toBe(call.spanContext().traceId);
    }
    expect(call.kind).toBe(SpanKind.INTERNAL);
    expect(call.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'assistant',
      'gen_ai.agent.id': agent.id,
      'gen_ai.request.model': 'gpt-test',
      'gen_ai.usage.input_tokens': 41,
      'gen_ai.usage.output_tokens': 6,
      'rxagent.generate_reason': 'stop',
    });
    expect(call.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('records per-request usage and finish reasons on chat spans and tool ids on tool spans', async () => {
    const agent = agentWith(tracing, [
      {
        toolCalls: [{ id: 'call_w', name: 'get_weather', arguments: { city: 'Oslo' } }],
        usage: { inputTokens: 11, outputTokens: 4 },
      },
      { text: 'Sunny.', usage: { inputTokens: 30, outputTokens: 2 } },
    ]);
    await ask(agent, 'Weather in Oslo?');

    const [first, , second] = tracing.spans();
    expect(first?.kind).toBe(SpanKind.CLIENT);
    expect(first?.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'gpt-test',
      'gen_ai.usage.input_tokens': 11,
      'gen_ai.usage.output_tokens': 4,
      'gen_ai.response.finish_reasons': ['tool_calls'],
    });
    expect(second?.attributes).toMatchObject({
      'gen_ai.usage.input_tokens': 30,
      'gen_ai.response.finish_reasons': ['stop'],
    });
    expect(tracing.span('execute_tool get_weather').attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'get_weather',
      'gen_ai.tool.call.id': 'call_w',
      'gen_ai.tool.type': 'function',
    });
  });

  it('records the input a prompt cache served and the hit ratio on chat and call spans', async () => {
    const agent = agentWith(tracing, [
      {
        toolCalls: [{ id: 'call_w', name: 'get_weather', arguments: { city: 'Oslo' } }],
        usage: { inputTokens: 1000, outputTokens: 4, cachedInputTokens: 0 },
      },
      { text: 'Sunny.', usage: { inputTokens: 1000, outputTokens: 2, cachedInputTokens: 900 } },
    ]);
    await ask(agent, 'Weather in Oslo?');

    const [first, , second] = tracing.spans();
    expect(first?.attributes).toMatchObject({
      'gen_ai.usage.cache_read.input_tokens': 0,
      'rxagent.usage.cache_hit_ratio': 0,
    });
    expect(second?.attributes).toMatchObject({
      'gen_ai.usage.cache_read.input_tokens': 900,
      'rxagent.usage.cache_hit_ratio': 0.9,
    });
    expect(tracing.span('invoke_agent assistant').attributes).toMatchObject({
      'gen_ai.usage.input_tokens': 2000,
      'gen_ai.usage.cache_read.input_tokens': 900,
      'rxagent.usage.cache_hit_ratio': 0.45,
    });
  });

  it('records the model that answered and the models a fallback chain skipped on the chat span', async () => {
    const down = new ScriptedChatModel([{ error: { status: 503, message: 'down' } }], {
      modelName: 'primary',
    });
    const backup = new ScriptedChatModel(
      [{ text: 'Sunny.', usage: { inputTokens: 5, outputTokens: 1 } }],
      { modelName: 'backup' },
    );
    const agent = new ReActAgent({
      name: 'assistant',
      sysPrompt: '',
      model: new FallbackChatModel([down, backup]),
      hooks: [otelHook({ tracer: tracing.provider.getTracer('test') })],
    });
    await ask(agent, 'Weather?');
    const chat = tracing.span('chat primary');
    expect(chat.attributes['gen_ai.request.model']).toBe('primary');
    expect(chat.attributes['gen_ai.response.model']).toBe('backup');
    expect(JSON.parse(String(chat.attributes['rxagent.fallback.skipped']))).toMatchObject([
      { model: 'primary', reason: 'failed', status: 503 },
    ]);
  });

  it('records no message content by default', async () => {
    const agent = agentWith(tracing, [
      { toolCalls: [{ id: 'call_w', name: 'get_weather', arguments: { city: 'Rome' } }] },
      'Sunny in Rome.',
    ]);
    await ask(agent, 'secret question');
    const everything = JSON.stringify(tracing.spans().map((span) => span.attributes));
    expect(everything).not.toContain('secret question');
    expect(everything).not.toContain('Rome');
    expect(everything).not.toContain('You are helpful.');
  });

  it('records messages, system instructions, tool arguments and results with captureContent', async () => {
    const agent = agentWith(
      tracing,
      [
        { toolCalls: [{ id: 'call_w', name: 'get_weather', arguments: { city: 'Rome' } }] },
        'Sunny in Rome.',
      ],
      { captureContent: true, providerName: 'openai' },
    );
    await ask(agent, 'Weather in Rome?');

    const call = tracing.span('invoke_agent assistant');
    expect(JSON.parse(String(call.attributes['gen_ai.input.messages']))).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'Weather in Rome?' }] },
    ]);
    expect(JSON.parse(String(call.attributes['gen_ai.output.messages']))).toEqual([
      {
        role: 'assistant',
        parts: [{ type: 'text', content: 'Sunny in Rome.' }],
      },
    ]);
    expect(call.attributes['gen_ai.system_instructions']).toBe('You are helpful.');
    expect(call.attributes['gen_ai.provider.name']).toBe('openai');
    const toolSpan = tracing.span('execute_tool get_weather');
    expect(toolSpan.attributes['gen_ai.tool.call.arguments']).toBe('{"city":"Rome"}');
    expect(toolSpan.attributes['gen_ai.tool.call.result']).toBe('Sunny in Rome.');
    const firstChat = tracing.spans()[0]!;
    expect(String(firstChat.attributes['gen_ai.output.messages'])).toContain('"tool_call"');
  });

  it('sets ERROR status, error.type and an exception event when the call fails', async () => {
    const agent = agentWith(tracing, [{ error: { status: 400, message: 'bad request' } }]);
    await expect(ask(agent, 'hi')).rejects.toThrow();

    const call = tracing.span('invoke_agent assistant');
    expect(call.status.code).toBe(SpanStatusCode.ERROR);
    expect(call.attributes['error.type']).toBe('MODEL_FAILED');
    expect(call.events.map((event) => event.name)).toContain('exception');
    const chat = tracing.span('chat gpt-test');
    expect(chat.status.code).toBe(SpanStatusCode.ERROR);
    expect(tracing.parentName(chat)).toBe('invoke_agent assistant');
  });

  it('records a failed span for a call that an earlier hook failed before otelHook saw it', async () => {
    const agent = new ReActAgent({
      name: 'assistant',
      sysPrompt: 'You are helpful.',
      model: new ScriptedChatModel([]),
      hooks: [
        {
          priority: 1,
          onEvent: (event) => {
            if (event.type === 'preCall') throw new Error('quota exceeded');
          },
        },
        otelHook({ tracer: tracing.provider.getTracer('test') }),
      ],
    });
    await expect(ask(agent, 'hi')).rejects.toThrow('quota exceeded');
    const call = tracing.span('invoke_agent assistant');
    expect(call.status).toEqual({ code: SpanStatusCode.ERROR, message: 'quota exceeded' });
  });

  it('records the max-iterations summary request as a chat span', async () => {
    const agent = new ReActAgent({
      name: 'assistant',
      sysPrompt: 'You are helpful.',
      model: new ScriptedChatModel(
        [
          { toolCalls: [{ id: 'call_w', name: 'get_weather', arguments: { city: 'Paris' } }] },
          { text: 'Summary.', usage: { inputTokens: 7, outputTokens: 1 } },
        ],
        { modelName: 'gpt-test' },
      ),
      toolkit: new Toolkit([weather]),
      maxIters: 1,
      hooks: [otelHook({ tracer: tracing.provider.getTracer('test') })],
    });
    const reply = await ask(agent, 'Weather?');
    expect(reply.metadata['generateReason']).toBe('max_iterations');
    const chats = tracing.spans().filter((span) => span.name === 'chat gpt-test');
    expect(chats).toHaveLength(2);
    expect(chats[1]?.attributes).toMatchObject({
      'gen_ai.usage.input_tokens': 7,
      'gen_ai.response.finish_reasons': ['stop'],
    });
    expect(tracing.parentName(chats[1]!)).toBe('invoke_agent assistant');
  });

  it('records the error a tool threw on its span, with its stack, while the call goes on', async () => {
    class DiskFullError extends Error {
      override readonly name = 'DiskFullError';
    }
    const thrown = new DiskFullError('disk full');
    const broken = tool({
      name: 'broken',
      description: 'Always throws.',
      parameters: z.object({}),
      execute: () => Promise.reject(thrown),
    });
    const agent = agentWith(
      tracing,
      [{ toolCalls: [{ id: 'call_b', name: 'broken', arguments: {} }] }, 'It failed.'],
      { tools: new Toolkit([broken]) },
    );
    await ask(agent, 'try it');
    const toolSpan = tracing.span('execute_tool broken');
    expect(toolSpan.status.code).toBe(SpanStatusCode.ERROR);
    expect(toolSpan.status.message).toBe('disk full');
    expect(toolSpan.attributes['error.type']).toBe('DiskFullError');
    const exception = toolSpan.events.find((e) => e.name === 'exception');
    expect(exception?.attributes).toMatchObject({
      'exception.type': 'DiskFullError',
      'exception.message': 'disk full',
      'exception.stacktrace': thrown.stack,
    });
    expect(tracing.span('invoke_agent assistant').status.code).toBe(SpanStatusCode.UNSET);
  });

  it('marks a tool error result that no throw made (bad arguments) with error.type tool_error', async () => {
    const strict = tool({
      name: 'strict',
      description: 'Needs a count.',
      parameters: z.object({ count: z.number() }),
      execute: ({ count }) => `${count}`,
    });
    const agent = agentWith(
      tracing,
      [{ toolCalls: [{ id: 'call_s', name: 'strict', arguments: { count: 'x' } }] }, 'It failed.'],
      { tools: new Toolkit([strict]) },
    );
    await ask(agent, 'try it');
    const toolSpan = tracing.span('execute_tool strict');
    expect(toolSpan.status.code).toBe(SpanStatusCode.ERROR);
    expect(toolSpan.attributes['error.type']).toBe('tool_error');
    expect(toolSpan.events.filter((e) => e.name === 'exception')).toEqual([]);
  });

  it('marks an interrupted call and the tool run it cut with rxagent.interrupted', async () => {
    let agent: ReActAgent | undefined;
    const slow = tool({
      name: 'slow',
      description: 'Runs until stopped.',
      parameters: z.object({}),
      execute: (_args, { signal }) =>
        new Promise<string>((resolve) => {
          signal.addEventListener('abort', () => resolve('stopped'));
          queueMicrotask(() => agent?.interrupt());
        }),
    });
    agent = agentWith(tracing, [{ toolCalls: [{ id: 'call_s', name: 'slow', arguments: {} }] }], {
      tools: new Toolkit([slow]),
    });
    const reply = await ask(agent, 'go');
    expect(reply.metadata['interrupted']).toBe(true);

    const call = tracing.span('invoke_agent assistant');
    expect(call.attributes['rxagent.interrupted']).toBe(true);
    expect(call.attributes['rxagent.generate_reason']).toBe('interrupted');
    expect(call.status.code).toBe(SpanStatusCode.UNSET);
    expect(tracing.span('execute_tool slow').attributes['rxagent.interrupted']).toBe(true);
  });

  it('ends the spans of a call abandoned by unsubscribing when the agent is called again', async () => {
    const agent = agentWith(tracing, [{ text: 'slow', delayMs: 60_000 }, 'fast']);
    const subscription = agent.call(userMsg('first')).subscribe();
    subscription.unsubscribe();
    expect(tracing.spans()).toEqual([]);
    await ask(agent, 'second');
    const calls = tracing.spans().filter((span) => span.name === 'invoke_agent assistant');
    expect(calls).toHaveLength(2);
    expect(calls[0]?.attributes['rxagent.cancelled']).toBe(true);
    expect(calls[1]?.attributes['rxagent.cancelled']).toBeUndefined();
  });

  it('starts only the call span on a no-op tracer, but every span on an unsampled real one', async () => {
    const counting = (tracer: Tracer) => {
      const counter = { spans: 0, tracer: tracer };
      counter.tracer = {
        startSpan: (...args: Parameters<Tracer['startSpan']>) => {
          counter.spans++;
          return tracer.startSpan(...args);
        },
        startActiveSpan: tracer.startActiveSpan.bind(tracer),
      } as Tracer;
      return counter;
    };
    const script = (): ScriptedReply[] => [
      { toolCalls: [{ id: 'call_w', name: 'get_weather', arguments: { city: 'Lima' } }] },
      'Sunny.',
    ];
    const noop = counting(new ProxyTracerProvider().getTracer('noop'));
    await ask(agentWith(tracing, script(), { tracer: noop.tracer }), 'Lima?');
    expect(noop.spans).toBe(1);

    const unsampled = new BasicTracerProvider({ sampler: new AlwaysOffSampler() });
    const off = counting(unsampled.getTracer('off'));
    await ask(agentWith(tracing, script(), { tracer: off.tracer }), 'Lima?');
    expect(off.spans).toBe(4);
  });

  it('ignores chunk events without touching them', () => {
    const hook = otelHook({ tracer: tracing.provider.getTracer('test') });
    const chunk = Object.freeze({ type: 'reasoningChunk', delta: { text: 'x' } });
    expect(hook.onEvent(chunk as never)).toBeUndefined();
    expect(tracing.spans()).toEqual([]);
  });
});

describe('otelHook nesting across agents', () => {
  let tracing: TestTracing;
  beforeEach(() => {
    tracing = startTracing({ asyncContext: true });
  });
  afterEach(() => tracing.dispose());

  it("nests the calls of a sequential pipeline under the caller's active span", async () => {
    const first = agentWith(tracing, ['draft'], { name: 'writer' });
    const second = agentWith(tracing, ['final'], { name: 'editor' });
    const tracer = tracing.provider.getTracer('app');
    await tracer.startActiveSpan('workflow', async (span) => {
      await lastValueFrom(sequentialPipeline([first, second], userMsg('write')));
      span.end();
    });
    expect(tracing.parentName(tracing.span('invoke_agent writer'))).toBe('workflow');
    expect(tracing.parentName(tracing.span('invoke_agent editor'))).toBe('workflow');
  });

  it("nests the calls made inside a MsgHub under the caller's span; broadcasts add no spans", async () => {
    const alice = agentWith(tracing, ['I am Alice.'], { name: 'alice' });
    const bob = agentWith(tracing, ['Hi Alice, I am Bob.'], { name: 'bob' });
    const tracer = tracing.provider.getTracer('app');
    await tracer.startActiveSpan('meeting', async (span) => {
      await lastValueFrom(
        msgHub({ participants: [alice, bob], announcement: userMsg('Introduce yourselves.') }, () =>
          sequentialPipeline([alice, bob]),
        ),
      );
      span.end();
    });
    expect(tracing.parentName(tracing.span('invoke_agent alice'))).toBe('meeting');
    expect(tracing.parentName(tracing.span('invoke_agent bob'))).toBe('meeting');
    expect(
      tracing
        .spans()
        .map((span) => span.name)
        .sort(),
    ).toEqual([
      'chat gpt-test',
      'chat gpt-test',
      'invoke_agent alice',
      'invoke_agent bob',
      'meeting',
    ]);
  });

  it("nests concurrent fanout calls under the caller's span, each with its own children", async () => {
    const a = agentWith(tracing, [{ text: 'a', delayMs: 5 }], { name: 'a' });
    const b = agentWith(tracing, ['b'], { name: 'b' });
    const tracer = tracing.provider.getTracer('app');
    await tracer.startActiveSpan('fan', async (span) => {
      await lastValueFrom(fanoutPipeline([a, b], userMsg('go')));
      span.end();
    });
    expect(tracing.parentName(tracing.span('invoke_agent a'))).toBe('fan');
    expect(tracing.parentName(tracing.span('invoke_agent b'))).toBe('fan');
    const chats = tracing.spans().filter((span) => span.name === 'chat gpt-test');
    expect(chats.map((chat) => tracing.parentName(chat)).sort()).toEqual([
      'invoke_agent a',
      'invoke_agent b',
    ]);
  });

  it('nests a sub-agent called from a tool under that tool span through contextOf', async () => {
    const hook = otelHook({ tracer: tracing.provider.getTracer('test') });
    const researcher = new ReActAgent({
      name: 'researcher',
      sysPrompt: 'Research.',
      model: new ScriptedChatModel(['found it'], { modelName: 'gpt-test' }),
      hooks: [hook],
    });
    const research = tool({
      name: 'research',
      description: 'Asks the researcher.',
      parameters: z.object({ topic: z.string() }),
      execute: ({ topic }, ctx) =>
        context.with(
          (ctx.agent && hook.contextOf(ctx.agent, ctx.toolCallId)) ?? context.active(),
          () => lastValueFrom(researcher.call(userMsg(topic))).then(() => 'done'),
        ),
    });
    const lead = new ReActAgent({
      name: 'lead',
      sysPrompt: 'Lead.',
      model: new ScriptedChatModel(
        [{ toolCalls: [{ name: 'research', arguments: { topic: 'otel' } }] }, 'ok'],
        { modelName: 'gpt-test' },
      ),
      toolkit: new Toolkit([research]),
      hooks: [hook],
    });
    await ask(lead, 'go');
    expect(tracing.parentName(tracing.span('invoke_agent researcher'))).toBe(
      'execute_tool research',
    );
    expect(tracing.parentName(tracing.span('execute_tool research'))).toBe('invoke_agent lead');
    expect(trace.getActiveSpan()).toBeUndefined();
  });

  it("nests an asTool sub-agent's call under the caller's tool span, at every level and on resume", async () => {
    const hook = otelHook({ tracer: tracing.provider.getTracer('test') });
    const model = (script: ScriptedReply[]) =>
      new ScriptedChatModel(script, { modelName: 'gpt-test' });
    const pay = tool({
      name: 'pay',
      description: 'Pays.',
      parameters: z.object({ amount: z.number() }),
      needsApproval: true,
      execute: ({ amount }) => `paid ${amount}`,
    });
    const payments = new ReActAgent({
      name: 'payments',
      sysPrompt: 'Pay.',
      model: model([{ toolCalls: [{ id: 'p1', name: 'pay', arguments: { amount: 3 } }] }, 'Paid.']),
      toolkit: new Toolkit([pay]),
      hooks: [hook],
    });
    const booking = new ReActAgent({
      name: 'booking',
      sysPrompt: 'Book.',
      model: model([
        { toolCalls: [{ id: 'b1', name: 'ask_payments', arguments: { request: 'pay 3' } }] },
        'Booked.',
      ]),
      toolkit: new Toolkit([payments.asTool({ name: 'ask_payments' })]),
      hooks: [hook],
    });
    const travel = new ReActAgent({
      name: 'travel',
      sysPrompt: 'Plan.',
      model: model([
        { toolCalls: [{ id: 't1', name: 'ask_booking', arguments: { request: 'book' } }] },
        'Done.',
      ]),
      toolkit: new Toolkit([booking.asTool({ name: 'ask_booking' })]),
      hooks: [hook],
    });

    const stopped = await ask(travel, 'go');
    expect(stopped.metadata['generateReason']).toBe('approval_required');
    const first = tracing.spans();
    const parentOf = (name: string) =>
      first.filter((span) => span.name === name).map((span) => tracing.parentName(span));
    expect(parentOf('invoke_agent booking')).toEqual(['execute_tool ask_booking']);
    expect(parentOf('invoke_agent payments')).toEqual(['execute_tool ask_payments']);
    expect(parentOf('execute_tool ask_payments')).toEqual(['invoke_agent booking']);
    expect(parentOf('execute_tool ask_booking')).toEqual(['invoke_agent travel']);
    tracing.exporter.reset();

    await lastValueFrom(travel.call(toolDecisions({ approve: ['p1'] })));
    expect(tracing.parentName(tracing.span('invoke_agent payments'))).toBe(
      'execute_tool ask_payments',
    );
    expect(tracing.parentName(tracing.span('execute_tool pay'))).toBe('invoke_agent payments');
    expect(tracing.parentName(tracing.span('invoke_agent booking'))).toBe(
      'execute_tool ask_booking',
    );
    expect(tracing.parentName(tracing.span('invoke_agent travel'))).toBe('(root)');
  });
});
