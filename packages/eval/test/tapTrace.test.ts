import { type AgentBase, Toolkit, tool, userMsg } from '@rxagent/core';
import { ScriptedChatModel } from '@rxagent/core/testing';
import { type EvalCase, evaluate, type TraceEntry, toolTrajectory } from '@rxagent/eval';
import { ReActAgent } from '@rxagent/react-agent';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RunTrace, TRACE_EVENTS } from '../src/trace/runTrace.js';

/**
 * The eval runner records its traces through a call's tap (live events, no snapshot); these
 * runs check that a trace and the scores made from it are exactly what the runner recorded
 * from `stream()`'s snapshots before, for runs with tools, tool errors, a failed call, an
 * interrupt, a sub-agent and the chunk events.
 */

let current: AgentBase | undefined; // the agent of the running case (for the interrupting tool)

const weather = tool({
  name: 'get_weather',
  description: 'Weather for a city.',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => {
    if (city === 'Atlantis') return Promise.reject(new Error('no such city'));
    if (city === 'Stop') current?.interrupt(userMsg('enough'));
    return `${city}: sunny, 21 °C`;
  },
});

function scripted(id: string): ConstructorParameters<typeof ScriptedChatModel>[0] {
  switch (id) {
    case 'tools':
      return [
        {
          text: 'Checking both cities.',
          toolCalls: [
            { name: 'get_weather', arguments: { city: 'Paris' } },
            { name: 'get_weather', arguments: { city: 'Atlantis' } },
          ],
          usage: { inputTokens: 7, outputTokens: 3 },
        },
        { toolCalls: [{ name: 'get_weather', arguments: { city: 'Rome' } }] },
        'Paris and Rome are sunny; Atlantis is unknown.',
      ];
    case 'interrupt':
      return [{ toolCalls: [{ name: 'get_weather', arguments: { city: 'Stop' } }] }, 'never sent'];
    default: // 'fails': the script runs out after the tool step, so the call errors
      return [{ toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] }];
  }
}

function agentFor(testCase: EvalCase): AgentBase {
  const helper = new ReActAgent({
    name: 'helper',
    sysPrompt: 'Answer briefly.',
    model: new ScriptedChatModel(['Take an umbrella.']),
  });
  const tools =
    testCase.id === 'nested' ? [weather, helper.asTool({ name: 'ask_helper' })] : [weather];
  const script: ConstructorParameters<typeof ScriptedChatModel>[0] =
    testCase.id === 'nested'
      ? [
          { toolCalls: [{ name: 'ask_helper', arguments: { request: 'Umbrella?' } }] },
          'The helper says: take an umbrella.',
        ]
      : scripted(testCase.id);
  current = new ReActAgent({
    name: 'assistant',
    sysPrompt: 'Use tools.',
    toolkit: new Toolkit(tools),
    model: new ScriptedChatModel(script),
  });
  return current;
}

const dataset: EvalCase[] = ['tools', 'fails', 'interrupt', 'nested'].map((id) => ({
  id,
  input: `Run ${id}.`,
  expected: 'x',
}));

/** What the runner recorded before: the case's `stream()` snapshots through a `RunTrace`. */
async function streamedTrace(testCase: EvalCase, chunks: boolean): Promise<TraceEntry[]> {
  const trace = new RunTrace(performance.now());
  const options = chunks ? {} : { events: TRACE_EVENTS };
  await new Promise<void>((resolve) => {
    agentFor(testCase)
      .stream(userMsg(testCase.input as string), options)
      .subscribe({
        next: (event) => trace.record(event),
        error: () => resolve(), // a failed call: its error event is the trace's last entry
        complete: resolve,
      });
  });
  return trace.entries;
}

/** A trace as JSON with times masked and ids numbered in order of appearance. */
function comparable(value: unknown): string {
  const ids: string[] = [];
  const text = JSON.stringify(value, (key, v: unknown) => {
    if (key === 'at' || key.endsWith('Ms')) return 0;
    if (key === 'timestamp' || key === 'startedAt') return 'T';
    if (typeof v === 'string' && (key === 'id' || key.endsWith('Id')) && !ids.includes(v))
      ids.push(v);
    return v;
  });
  return ids.reduce((json, id, i) => json.split(id).join(`ID${i}`), text);
}

describe('evaluate() records through a tap what stream() gave', () => {
  for (const chunks of [false, true]) {
    it(`the same traces and scores for tools, errors, an interrupt and a sub-agent (chunks: ${chunks})`, async () => {
      const trajectory = toolTrajectory(['get_weather', 'get_weather'], { order: 'any' });
      const report = await evaluate({
        dataset,
        agent: agentFor,
        scorers: { trajectory },
        progress: false,
        traceChunks: chunks,
      });
      const kinds = report.cases.map((result) => result.trace.map((entry) => entry.event.type));
      expect(kinds[1]).toContain('error'); // the failed call
      expect(report.cases[1]?.error).toMatch(/Error/);
      expect(report.cases[2]?.reply?.metadata['interrupted']).toBe(true);
      expect(report.cases[3]?.trace.some((entry) => entry.agent === 'helper')).toBe(true);
      if (chunks) expect(kinds[0]).toContain('reasoningChunk');
      for (const [i, testCase] of dataset.entries()) {
        const before = await streamedTrace(testCase, chunks);
        const result = report.cases[i]!;
        expect(comparable(result.trace)).toBe(comparable(before));
        if (result.reply !== undefined)
          expect(result.scores['trajectory']).toEqual(
            trajectory.score(testCase, result.reply, before),
          );
      }
      expect(report.cases[0]?.scores['trajectory']?.score).toBe(1);
    });
  }
});
