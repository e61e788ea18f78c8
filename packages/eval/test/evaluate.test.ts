import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AgentBase,
  type ChatChunk,
  type ChatModel,
  InvalidArgumentError,
  Toolkit,
  textOf,
  tool,
} from '@rxagent/core';
import { FailingAgent, ScriptedChatModel } from '@rxagent/core/testing';
import {
  type EvalCase,
  evaluate,
  exactMatch,
  includes,
  llmJudge,
  matchesSchema,
  percentile,
  toolTrajectory,
} from '@rxagent/eval';
import { ReActAgent } from '@rxagent/react-agent';
import { Observable } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

/** Capital questions, and what the scripted model answers to each (two are wrong). */
const ANSWERS: Record<string, string> = {
  france: 'Paris',
  japan: 'Tokyo',
  italy: 'The capital of Italy is Rome.',
  spain: 'Barcelona',
};
const DATASET: EvalCase[] = [
  { id: 'france', input: 'Capital of France?', expected: 'Paris' },
  { id: 'japan', input: 'Capital of Japan?', expected: 'Tokyo' },
  { id: 'italy', input: 'Capital of Italy?', expected: 'Rome' },
  { id: 'spain', input: 'Capital of Spain?', expected: 'Madrid' },
];

function capitalAgent(testCase: EvalCase, delayMs = 0): AgentBase {
  return new ReActAgent({
    name: 'geo',
    sysPrompt: 'Answer with the capital.',
    model: new ScriptedChatModel([
      { text: ANSWERS[testCase.id]!, usage: { inputTokens: 10, outputTokens: 2 }, delayMs },
    ]),
  });
}

describe('evaluate', () => {
  it('scores a dataset with known answers: per case, per scorer, and the totals', async () => {
    const report = await evaluate({
      dataset: DATASET,
      agent: (testCase) => capitalAgent(testCase),
      scorers: [exactMatch(), includes()],
      name: 'capitals',
      progress: false,
    });
    expect(report.name).toBe('capitals');
    expect(report.cases.map((run) => run.id)).toEqual(['france', 'japan', 'italy', 'spain']);
    const exact = report.cases.map((run) => run.scores['exactMatch']!.score);
    const contains = report.cases.map((run) => run.scores['includes']!.score);
    expect(exact).toEqual([1, 1, 0, 0]);
    expect(contains).toEqual([1, 1, 1, 0]);
    expect(report.cases.map((run) => run.passed)).toEqual([true, true, false, false]);
    expect(report.scorers).toEqual({
      exactMatch: { mean: 0.5, passRate: 0.5 },
      includes: { mean: 0.75, passRate: 0.75 },
    });
    expect(report.score).toBeCloseTo(0.625);
    expect(report.passRate).toBe(0.5);
    expect(report.tokens).toEqual({ inputTokens: 40, outputTokens: 8, totalTokens: 48 });
    expect(report.cases[0]!.usage).toEqual({ inputTokens: 10, outputTokens: 2, totalTokens: 12 });
    expect(textOf(report.cases[2]!.reply!)).toBe('The capital of Italy is Rome.');
    expect(report.cases[3]!.scores['includes']!.reason).toContain('"Madrid"');
    const latencies = report.cases.map((run) => run.latencyMs);
    expect(report.latency.p50).toBe(percentile(latencies, 50));
    expect(report.latency.p95).toBe(percentile(latencies, 95));
    expect(report.latency.max).toBe(Math.max(...latencies));
    // Each run keeps its trace: the model request and the reply.
    const types = report.cases[0]!.trace.map((entry) => entry.event.type);
    expect(types).toContain('preReasoning');
    expect(types.at(-1)).toBe('reply');
  });

  it('keeps at most `concurrency` runs in flight, and runs every trial', async () => {
    for (const concurrency of [1, 3]) {
      let running = 0;
      let most = 0;
      const report = await evaluate({
        dataset: DATASET,
        trials: 2,
        concurrency,
        progress: false,
        scorers: [includes()],
        agent: (testCase) => {
          const agent = capitalAgent(testCase, 15);
          agent.addHook({
            onEvent: (event) => {
              if (event.type === 'preCall') most = Math.max(most, ++running);
              if (event.type === 'postCall') running--;
            },
          });
          return agent;
        },
      });
      expect(most).toBe(concurrency);
      expect(report.cases).toHaveLength(8);
      expect(report.cases.map((run) => `${run.id}#${run.trial}`).slice(0, 4)).toEqual([
        'france#0',
        'france#1',
        'japan#0',
        'japan#1',
      ]);
    }
  });

  it('records a failed run with its error and zero scores, and goes on', async () => {
    const report = await evaluate({
      dataset: DATASET.slice(0, 2),
      progress: false,
      scorers: { contains: includes() },
      agent: (testCase) =>
        testCase.id === 'japan'
          ? new FailingAgent({ name: 'broken', error: new Error('model down') })
          : capitalAgent(testCase),
    });
    expect(report.errors).toBe(1);
    const failed = report.cases[1]!;
    expect(failed.reply).toBeUndefined();
    expect(failed.error).toContain('model down');
    expect(failed.scores['contains']).toMatchObject({ score: 0 });
    expect(report.scorers['contains']).toEqual({ mean: 0.5, passRate: 0.5 });
  });

  it('scores tool trajectories strictly and in any order', async () => {
    const lookup = tool({
      name: 'lookup',
      description: 'Looks a country up.',
      parameters: z.object({ country: z.string() }),
      execute: ({ country }) => `capital of ${country}`,
    });
    const convert = tool({
      name: 'convert',
      description: 'Converts.',
      parameters: z.object({}),
      execute: () => 'ok',
    });
    const report = await evaluate({
      dataset: [{ id: 'a', input: 'go' }],
      progress: false,
      scorers: [
        toolTrajectory(['lookup', 'convert']),
        { ...toolTrajectory(['convert', 'lookup']), name: 'reversed' },
        { ...toolTrajectory(['convert', 'lookup'], { order: 'any' }), name: 'anyOrder' },
        { ...toolTrajectory(['lookup', 'lookup'], { order: 'any' }), name: 'twice' },
      ],
      agent: () =>
        new ReActAgent({
          name: 'tools',
          sysPrompt: 'Use the tools.',
          toolkit: new Toolkit([lookup, convert]),
          model: new ScriptedChatModel([
            { toolCalls: [{ name: 'lookup', arguments: { country: 'France' } }] },
            { toolCalls: [{ name: 'convert', arguments: {} }] },
            'done',
          ]),
        }),
    });
    const scores = report.cases[0]!.scores;
    expect(scores['toolTrajectory']!.score).toBe(1);
    expect(scores['reversed']!.score).toBe(0);
    expect(scores['anyOrder']!.score).toBe(1);
    expect(scores['twice']!.score).toBe(0.5);
    expect(scores['toolTrajectory']!.reason).toBe(
      'called [lookup, convert], expected [lookup, convert]',
    );
  });

  it('checks JSON replies against a schema, and grades with a judge model', async () => {
    const judge = new ScriptedChatModel([
      (request) => {
        const prompt = request.messages
          .map((m) => (typeof m.content === 'string' ? m.content : ''))
          .join('\n');
        return prompt.includes('"temp":21')
          ? '{"score": 1, "reason": "has the temperature"}'
          : 'no idea';
      },
      'no idea',
    ]);
    const report = await evaluate({
      dataset: [
        { id: 'ok', input: 'weather' },
        { id: 'bad', input: 'weather' },
      ],
      progress: false,
      scorers: [
        matchesSchema(z.object({ temp: z.number() })),
        llmJudge({ model: judge, rubric: 'The reply gives a temperature.' }),
      ],
      agent: (testCase) =>
        new ReActAgent({
          name: 'json',
          sysPrompt: 'Answer in JSON.',
          model: new ScriptedChatModel([testCase.id === 'ok' ? '{"temp":21}' : '{"temp":"warm"}']),
        }),
    });
    const [ok, bad] = report.cases;
    expect(ok!.scores['matchesSchema']!.score).toBe(1);
    expect(bad!.scores['matchesSchema']).toMatchObject({ score: 0 });
    expect(bad!.scores['matchesSchema']!.reason).toMatch(/^temp: /);
    expect(ok!.scores['llmJudge']).toEqual({ score: 1, reason: 'has the temperature' });
    expect(bad!.scores['llmJudge']!.score).toBe(0);
    expect(bad!.scores['llmJudge']!.reason).toContain('unreadable verdict');
  });

  it('takes a custom scorer function, and scores 0 when it returns an invalid score', async () => {
    const report = await evaluate({
      dataset: DATASET.slice(0, 1),
      progress: false,
      scorers: [
        function short(_testCase, reply) {
          return { score: textOf(reply).length < 10 ? 1 : 0, reason: 'length' };
        },
        { name: 'broken', score: () => ({ score: 2 }) },
      ],
      agent: (testCase) => capitalAgent(testCase),
    });
    expect(report.cases[0]!.scores['short']).toEqual({ score: 1, reason: 'length' });
    expect(report.cases[0]!.scores['broken']!.reason).toMatch(/scorer failed: .*between 0 and 1/);
  });

  it('draws a progress line on a TTY and erases it at the end', async () => {
    const written: string[] = [];
    const out = Object.assign(
      new (await import('node:stream')).Writable({
        write(chunk, _encoding, callback) {
          written.push(String(chunk));
          callback();
        },
      }),
      { isTTY: true },
    );
    await evaluate({
      dataset: DATASET,
      agent: (c) => capitalAgent(c),
      scorers: [includes()],
      progress: out,
    });
    const text = written.join('');
    expect(text).toContain('eval 4/4 · 0 running · 3 passed');
    expect(written.at(-1)).toBe('\r\u001b[2K');
  });

  it('cancels the runs in flight when the signal aborts', async () => {
    const controller = new AbortController();
    let cancelled = 0;
    const pending = evaluate({
      dataset: DATASET,
      concurrency: 2,
      progress: false,
      signal: controller.signal,
      scorers: [includes()],
      agent: () => {
        const scripted = new ScriptedChatModel([{ text: 'slow', delayMs: 60_000 }]);
        // Counts requests torn down without completing: what cancelling a run must do.
        const model: ChatModel = {
          modelName: 'slow',
          stream: (request) =>
            new Observable<ChatChunk>((subscriber) => {
              let completed = false;
              queueMicrotask(() => controller.abort());
              const inner = scripted.stream(request).subscribe({
                next: (chunk) => subscriber.next(chunk),
                error: (error: unknown) => subscriber.error(error),
                complete: () => {
                  completed = true;
                  subscriber.complete();
                },
              });
              return () => {
                if (!completed) cancelled++;
                inner.unsubscribe();
              };
            }),
        };
        return new ReActAgent({ name: 'slow', sysPrompt: 'Be slow.', model });
      },
    });
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(cancelled).toBe(2);
  });

  describe('with a JSONL dataset', () => {
    let dir: string;
    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), 'rxagent-eval-'));
    });
    afterEach(() => rm(dir, { recursive: true, force: true }));

    it('reads one case per line and names a bad line', async () => {
      const path = join(dir, 'cases.jsonl');
      await writeFile(path, `${DATASET.map((c) => JSON.stringify(c)).join('\n')}\n\n`);
      const report = await evaluate({
        dataset: path,
        agent: capitalAgent,
        scorers: [includes()],
        progress: false,
      });
      expect(report.scorers['includes']!.mean).toBe(0.75);
      await writeFile(path, '{"id":"a","input":"x"}\n{oops\n');
      await expect(
        evaluate({ dataset: path, agent: capitalAgent, scorers: [includes()] }),
      ).rejects.toThrow(/line 2 is not valid JSON/);
    });
  });

  it('rejects bad options and datasets before running anything', async () => {
    const base = { dataset: DATASET, agent: capitalAgent, scorers: [includes()] };
    await expect(evaluate({ ...base, concurency: 2 } as never)).rejects.toThrow(
      /unknown option "concurency"/,
    );
    await expect(evaluate({ ...base, concurrency: 0 })).rejects.toThrow(
      /concurrency must be a positive integer/,
    );
    await expect(evaluate({ ...base, scorers: [] })).rejects.toThrow(/at least one scorer/);
    await expect(evaluate({ ...base, scorers: [includes(), includes()] })).rejects.toThrow(
      /two scorers are named "includes"/,
    );
    await expect(evaluate({ ...base, dataset: [DATASET[0]!, DATASET[0]!] })).rejects.toThrow(
      InvalidArgumentError,
    );
    await expect(evaluate({ ...base, dataset: [{ id: 'x' } as EvalCase] })).rejects.toThrow(
      /has no "input"/,
    );
  });
});

describe('percentile', () => {
  it('interpolates linearly between the closest ranks', () => {
    const values = [40, 10, 30, 20, 50, 60, 70, 80, 90, 100];
    expect(percentile(values, 50)).toBe(55);
    expect(percentile(values, 95)).toBeCloseTo(95.5);
    expect(percentile(values, 0)).toBe(10);
    expect(percentile(values, 100)).toBe(100);
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([], 50)).toBe(0);
  });
});
