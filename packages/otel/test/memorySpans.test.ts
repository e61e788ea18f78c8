import { InMemoryStore, userMsg } from '@rxagent/core';
import { ScriptedChatModel } from '@rxagent/core/testing';
import { LongTermMemory } from '@rxagent/memory';
import { otelHook } from '@rxagent/otel';
import { ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTracing, type TestTracing } from './tracing.js';

describe('otelHook and long-term memory', () => {
  let tracing: TestTracing;
  beforeEach(() => {
    tracing = startTracing();
  });
  afterEach(() => tracing.dispose());

  it('records memory_recall under the call and memory_write spans with the observer tokens', async () => {
    const memory = new LongTermMemory({
      store: new InMemoryStore(),
      namespace: () => ['users', 'ada'],
      observer: {
        model: new ScriptedChatModel([
          {
            toolCalls: [{ name: 'save_facts', arguments: { facts: ['Ada likes tea.'] } }],
            usage: { inputTokens: 40, outputTokens: 5 },
          },
        ]),
      },
    });
    const key = await memory.save(undefined, 'Ada lives in London.');
    const agent = new ReActAgent({
      name: 'desk',
      sysPrompt: 'Help.',
      model: new ScriptedChatModel(['Noted.'], { modelName: 'gpt-test' }),
      longTermMemory: memory,
      hooks: [otelHook({ tracer: tracing.provider.getTracer('test') })],
    });
    await lastValueFrom(agent.call(userMsg('Ada in London likes tea')));
    await memory.settled();
    const names = tracing.spans().map((span) => span.name);
    expect(names).toContain('memory_recall desk');
    const recall = tracing.span('memory_recall desk');
    expect(tracing.parentName(recall)).toBe('invoke_agent desk');
    expect(recall.attributes).toMatchObject({
      'gen_ai.operation.name': 'memory_recall',
      'rxagent.memory.namespace': 'users/ada',
      'rxagent.memory.keys': [key],
    });
    const writes = tracing.spans().filter((span) => span.name === 'memory_write desk');
    expect(writes).toHaveLength(2);
    expect(writes[0]!.attributes).toMatchObject({
      'gen_ai.usage.input_tokens': 40,
      'gen_ai.usage.output_tokens': 5,
    });
    expect((writes[1]!.attributes['rxagent.memory.keys'] as string[]).length).toBe(1);
  });
});
