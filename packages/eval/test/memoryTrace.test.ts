import { InMemoryStore } from '@rxagent/core';
import { ScriptedChatModel } from '@rxagent/core/testing';
import { type EvalCase, evaluate, includes, traceHtml } from '@rxagent/eval';
import { LongTermMemory } from '@rxagent/memory';
import { ReActAgent } from '@rxagent/react-agent';
import { describe, expect, it } from 'vitest';

describe('traces of an agent with long-term memory', () => {
  it('keep memoryRecall and memoryWrite events and show them as markers on the trace page', async () => {
    const memory = new LongTermMemory({
      store: new InMemoryStore(),
      namespace: () => ['users', 'ada'],
      observer: {
        model: new ScriptedChatModel([
          { toolCalls: [{ name: 'save_facts', arguments: { facts: ['Ada likes tea.'] } }] },
        ]),
      },
    });
    await memory.save(undefined, 'Ada lives in London.');
    const agent = new ReActAgent({
      name: 'desk',
      sysPrompt: 'Help.',
      model: new ScriptedChatModel(['Tea in London, then.']),
      longTermMemory: memory,
    });
    const dataset: EvalCase[] = [{ id: 'tea', input: 'I like tea in London', expected: 'Tea' }];
    const report = await evaluate({
      dataset,
      agent: () => agent,
      scorers: [includes()],
      progress: false,
    });
    expect(report.passRate).toBe(1);
    const trace = report.cases[0]!.trace;
    const types = trace.map((entry) => entry.event.type);
    expect(types).toContain('memoryRecall');
    expect(types).toContain('memoryWrite');
    const recall = trace.find((entry) => entry.event.type === 'memoryRecall')!.event;
    expect(recall).toMatchObject({
      type: 'memoryRecall',
      namespace: ['users', 'ada'],
      source: 'static',
    });
    const html = traceHtml(trace);
    expect(html).toContain('memory recall (static)');
    expect(html).toContain('memory write (observer)');
  });
});
