import {
  AgentBase,
  assistantMsg,
  type CallContext,
  type Msg,
  Toolkit,
  textOf,
  tool,
} from '@rxagent/core';
import { ScriptedChatModel } from '@rxagent/core/testing';
import {
  type EvalCase,
  evaluate,
  exactMatch,
  includes,
  type ScoreFn,
  type TraceEntry,
  toolCallNames,
  toolTrajectory,
  traceHtml,
} from '@rxagent/eval';
import { ReActAgent } from '@rxagent/react-agent';
import { type Observable, of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const lookup = tool({
  name: 'lookup',
  description: 'Looks a city up.',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `${city}: 21 °C`,
});

/** A ReAct agent with one tool step and a streamed answer. */
function weatherAgent(testCase: EvalCase): ReActAgent {
  return new ReActAgent({
    name: 'weather',
    sysPrompt: 'Use lookup.',
    toolkit: new Toolkit([lookup]),
    model: new ScriptedChatModel([
      {
        toolCalls: [{ name: 'lookup', arguments: { city: testCase.id } }],
        usage: { inputTokens: 7, outputTokens: 3 },
      },
      {
        text: `It is 21 °C in ${testCase.id} today, a fine day for a walk.`,
        usage: { inputTokens: 11, outputTokens: 5 },
      },
    ]),
  });
}

const DATASET: EvalCase[] = [
  { id: 'Oslo', input: 'Weather in Oslo?', expected: '21 °C' },
  { id: 'Lima', input: 'Weather in Lima?', expected: '21 °C' },
];

const types = (trace: readonly TraceEntry[]) => trace.map((entry) => entry.event.type);

/** Records, for each call, whether anything listened to chunk events. */
class ChunkProbe extends AgentBase {
  readonly listened: boolean[] = [];

  protected doCall(_msgs: Msg[], context: CallContext): Observable<Msg> {
    this.listened.push(context.listens('reasoningChunk'));
    return of(assistantMsg('21 °C', { name: this.name }));
  }
}

describe('evaluate: the trace of a run', () => {
  it('keeps every hook event but the chunks, in order, with the tool calls, arguments and results', async () => {
    const seen: TraceEntry[][] = [];
    const trajectory: ScoreFn = (_testCase, _reply, trace) => {
      seen.push([...trace]);
      return { score: toolCallNames(trace).join() === 'lookup' ? 1 : 0 };
    };
    const report = await evaluate({
      dataset: DATASET,
      agent: weatherAgent,
      scorers: { trajectory, strict: toolTrajectory(['lookup']), includes: includes() },
      progress: false,
    });
    expect(report.passRate).toBe(1);
    const run = report.cases[0]!;
    expect(types(run.trace)).toEqual([
      'preCall',
      'preReasoning',
      'postReasoning',
      'preActing',
      'postActing',
      'preReasoning',
      'postReasoning',
      'postCall',
      'reply',
    ]);
    expect(run.trace.every((entry) => entry.agent === 'weather')).toBe(true);
    const times = run.trace.map((entry) => entry.at);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times.at(-1)).toBeLessThanOrEqual(run.latencyMs);
    // A scorer gets the same entries the report keeps.
    expect(seen[0]).toEqual(run.trace);
    const preActing = run.trace.find((entry) => entry.event.type === 'preActing')!.event;
    expect(preActing.type === 'preActing' && preActing.toolCall).toMatchObject({
      name: 'lookup',
      input: { city: 'Oslo' },
    });
    const postActing = run.trace.find((entry) => entry.event.type === 'postActing')!.event;
    expect(postActing.type === 'postActing' && JSON.stringify(postActing.result)).toContain(
      'Oslo: 21 °C',
    );
    const request = run.trace.find((entry) => entry.event.type === 'preReasoning')!.event;
    expect(request.type === 'preReasoning' && request.tools).toEqual(['lookup']);
    expect(request.type === 'preReasoning' && request.messages.map((m) => m.role)).toEqual([
      'user',
    ]);
    expect(run.usage).toEqual({ inputTokens: 18, outputTokens: 8, totalTokens: 26 });
    expect(textOf(run.reply!)).toContain('21 °C in Oslo');
    // The report is JSON: the trace survives a round trip unchanged.
    expect(JSON.parse(JSON.stringify(run.trace))).toEqual(run.trace);
  });

  it('does not make the agent build chunk events, unless traceChunks keeps them', async () => {
    const probes: ChunkProbe[] = [];
    const agent = () => {
      const probe = new ChunkProbe({ name: 'probe' });
      probes.push(probe);
      return probe;
    };
    await evaluate({ dataset: DATASET, agent, scorers: [includes()], progress: false });
    await evaluate({
      dataset: DATASET,
      agent,
      scorers: [includes()],
      progress: false,
      traceChunks: true,
    });
    expect(probes.map((probe) => probe.listened[0])).toEqual([false, false, true, true]);
  });

  it('keeps the chunk events with traceChunks: the trace page shows the time to first chunk', async () => {
    const options = { dataset: DATASET.slice(0, 1), agent: weatherAgent, scorers: [includes()] };
    const withChunks = await evaluate({ ...options, progress: false, traceChunks: true });
    const without = await evaluate({ ...options, progress: false });
    const chunked = withChunks.cases[0]!.trace;
    expect(types(chunked)).toContain('reasoningChunk');
    expect(types(without.cases[0]!.trace)).not.toContain('reasoningChunk');
    // The same events otherwise, in the same order.
    expect(types(chunked).filter((type) => type !== 'reasoningChunk')).toEqual(
      types(without.cases[0]!.trace),
    );
    expect(traceHtml(chunked)).toContain('first chunk');
    expect(traceHtml(without.cases[0]!.trace)).not.toContain('first chunk');
  });

  it('keeps the events of an agent called as a tool, in its own lane, without its chunks', async () => {
    const agent = () => {
      const expert = new ReActAgent({
        name: 'expert',
        sysPrompt: 'Answer.',
        model: new ScriptedChatModel(['Oslo has 21 °C, a long answer streamed in chunks.']),
      });
      return new ReActAgent({
        name: 'desk',
        sysPrompt: 'Ask the expert.',
        toolkit: new Toolkit([expert.asTool({ name: 'ask_expert' })]),
        model: new ScriptedChatModel([
          { toolCalls: [{ name: 'ask_expert', arguments: { request: 'Oslo?' } }] },
          'It is 21 °C.',
        ]),
      });
    };
    const report = await evaluate({
      dataset: DATASET.slice(0, 1),
      agent,
      scorers: [includes(), toolTrajectory(['ask_expert'])],
      progress: false,
    });
    expect(report.passRate).toBe(1);
    const trace = report.cases[0]!.trace;
    const lanes = [...new Set(trace.map((entry) => entry.agent))];
    expect(lanes).toEqual(['desk', 'expert']);
    const expertTypes = trace.filter((e) => e.agent === 'expert').map((e) => e.event.type);
    expect(expertTypes).toEqual(['preCall', 'preReasoning', 'postReasoning', 'postCall']);
    expect(types(trace).at(-1)).toBe('reply');
    expect(trace.at(-1)!.agent).toBe('desk');
  });

  it('runs synchronous and asynchronous scorers in order, each failure scoring 0', async () => {
    const order: string[] = [];
    const report = await evaluate({
      dataset: DATASET.slice(0, 1),
      agent: weatherAgent,
      progress: false,
      scorers: {
        first: () => {
          order.push('first');
          return { score: 1 };
        },
        later: async () => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          order.push('later');
          return { score: 0.5, reason: 'half' };
        },
        rejects: async () => {
          order.push('rejects');
          throw new Error('judge down');
        },
        throws: () => {
          order.push('throws');
          throw new Error('bad scorer');
        },
        last: () => {
          order.push('last');
          return { score: 1 };
        },
      },
    });
    expect(order).toEqual(['first', 'later', 'rejects', 'throws', 'last']);
    const scores = report.cases[0]!.scores;
    expect(Object.keys(scores)).toEqual(['first', 'later', 'rejects', 'throws', 'last']);
    expect(scores['later']).toEqual({ score: 0.5, reason: 'half' });
    expect(scores['rejects']!.reason).toBe('scorer failed: Error: judge down');
    expect(scores['throws']!.reason).toBe('scorer failed: Error: bad scorer');
    expect(report.cases[0]!.passed).toBe(false);
  });

  it('rejects a traceChunks that is not a boolean', async () => {
    await expect(
      evaluate({
        dataset: DATASET,
        agent: weatherAgent,
        scorers: [includes()],
        traceChunks: 'yes' as unknown as boolean,
      }),
    ).rejects.toThrow(/traceChunks must be a boolean/);
  });
});

describe('text scorers: whitespace', () => {
  it('collapses any run of whitespace (tabs, newlines, no-break spaces) on both sides', () => {
    const testCase: EvalCase = { id: 'x', input: 'x', expected: ['Paris  is', 'the\tcapital'] };
    const score = (text: string) => includes().score(testCase, assistantMsg(text), []);
    expect(score('  Yes: paris\u00a0is\nthe   capital.  ')).toMatchObject({ score: 1 });
    expect(score('Paris is the capital')).toMatchObject({ score: 1 });
    expect(score('Parisis thecapital')).toMatchObject({ score: 0 });
    expect(
      exactMatch().score({ ...testCase, expected: 'a b' }, assistantMsg(' A \n\n B '), []),
    ).toMatchObject({ score: 1 });
  });
});
