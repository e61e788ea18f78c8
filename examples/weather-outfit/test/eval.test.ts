import { CassetteMismatchError, type ChatModel, userMsg } from '@rxagent/core';
import { readCassette, replayModel } from '@rxagent/core/testing';
import { evaluate, loadDataset } from '@rxagent/eval';
import { ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import weatherEval, { CASSETTE, DATASET } from '../src/eval.js';

describe('weather-outfit eval (replayed cassette)', () => {
  it('scores the ten cases from the committed cassette, offline', async () => {
    expect(loadDataset(DATASET)).toHaveLength(10);
    const report = await evaluate({ ...weatherEval({}), progress: false });
    expect(report.errors).toBe(0);
    expect(report.cases).toHaveLength(10);
    expect(report.scorers['toolTrajectory']).toEqual({ mean: 1, passRate: 1 });
    expect(report.scorers['includes']).toEqual({ mean: 0.95, passRate: 0.9 });
    const failing = report.cases.filter((run) => !run.passed);
    expect(failing.map((run) => run.id)).toEqual(['shanghai-rain-jacket']);
    expect(failing[0]!.scores['includes']!.reason).toBe('missing "rain jacket"');
    expect(report.score).toBeCloseTo(0.975);
    // Every exchange of the cassette answered exactly one request.
    const requests = report.cases.flatMap((run) =>
      run.trace.filter((entry) => entry.event.type === 'preReasoning'),
    );
    expect(requests).toHaveLength(readCassette(CASSETTE).length);
  });

  it('fails a changed prompt with the path of the change', async () => {
    const model: ChatModel = replayModel(CASSETTE);
    const agent = new ReActAgent({ name: 'assistant', sysPrompt: 'A new prompt.', model });
    const error = await lastValueFrom(agent.call(userMsg('Casual day in London today?'))).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CassetteMismatchError);
    expect((error as CassetteMismatchError).details.path).toBe('messages[0].content');
  });
});
