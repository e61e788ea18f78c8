import {
  assistantMsg,
  type CallContext,
  guardrail,
  InMemoryStore,
  type Msg,
  userMsg,
} from '@rxagent/core';
import { ScriptedChatModel } from '@rxagent/core/testing';
import { LongTermMemory } from '@rxagent/memory';
import { firstValueFrom, type Observable, of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Admission } from '../guardrails/agentGuardrails.js';
import type { ReActCallState } from '../loop/reactCallState.js';
import type { FinalAnswerDecision } from '../loop/step.js';
import { PlanNotebook } from '../plan/planNotebook.js';
import { ReActAgent } from '../reactAgent.js';
import type { ReActAgentOptions } from '../reactAgentOptions.js';
import type { AgentPart } from './agentPart.js';
import { AgentParts } from './agentParts.js';
import { optionParts, type PartHost } from './optionParts.js';

const model = new ScriptedChatModel([]);
const base: ReActAgentOptions = { name: 'probe', sysPrompt: 'Be brief.', model };
const host = (plan?: PlanNotebook): PartHost => ({
  agent: new ReActAgent(base),
  plan,
  notify: (event) => of(event),
  running: () => undefined,
});
const state = {} as ReActCallState;

describe('optionParts', () => {
  it('builds no part for an agent without options, so no boundary asks anyone', () => {
    const parts = optionParts(base, host());
    expect(parts).toBe(AgentParts.none); // one shared instance: nothing allocated per agent
    expect(parts.parts).toEqual([]);
    expect(parts.tools()).toEqual([]);
    expect(parts.hooks()).toEqual([]);
    expect(parts.states()).toEqual([]);
    expect(parts.requestHint()).toBeUndefined();
    expect(parts.admit([userMsg('hi')], {} as CallContext)).toBeUndefined();
    expect(parts.systemPrompt('Be brief.')).toBe('Be brief.');
    const next = () => of();
    expect(parts.wrapSteps(next, state, [], true)).toBe(next);
    expect(parts.finalAnswer(assistantMsg('done'), state)).toBeUndefined();
    expect(parts.replyMetadata(state)).toBeUndefined();
  });

  it('keeps an agent without options at its own state modules and toolkit', () => {
    const agent = new ReActAgent(base);
    expect(Object.keys(agent.stateDict())).toEqual([
      'version',
      'agentName',
      'memory',
      'toolkit',
      'approvals',
    ]);
  });

  it('builds one part per option set, in the order of the tools they add', () => {
    const options: ReActAgentOptions = {
      ...base,
      handoffs: [new ReActAgent({ ...base, name: 'billing' })],
      approvalRules: [{ tool: 'refund', decision: 'ask' }],
      guardrails: [guardrail({ name: 'noop', on: 'output', check: () => ({ tripped: false }) })],
      longTermMemory: new LongTermMemory({ store: new InMemoryStore(), namespace: () => ['u'] }),
      offload: { overChars: 100 },
      finishGuard: { check: () => of({ pass: true }) } as never,
    };
    const parts = optionParts(options, host(new PlanNotebook()));
    expect(parts.parts.map((part) => part.name)).toEqual([
      'handoffs',
      'approvalRules',
      'guardrails',
      'longTermMemory',
      'plan',
      'offload',
      'finishGuard',
    ]);
    const tools = parts.tools().map((tool) => tool.name);
    expect(tools[0]).toBe('transfer_to_billing');
    expect(tools.indexOf('memory_search')).toBeLessThan(tools.indexOf('create_plan'));
    expect(tools[tools.length - 1]).toBe('read_result');
    expect(parts.states().map(([key]) => key)).toEqual(['longTermMemory', 'plan', 'offload']);
  });
});

describe('AgentParts', () => {
  const decide =
    (
      name: string,
      decision: FinalAnswerDecision | undefined,
    ): NonNullable<AgentPart['finalAnswer']> =>
    () =>
      decision === undefined ? undefined : { ...decision, details: { by: name } };

  it('asks the final-answer parts in order; the first that decides wins', () => {
    const reply = assistantMsg('done');
    const parts = new AgentParts([
      { name: 'silent', finalAnswer: decide('silent', undefined) },
      { name: 'first', finalAnswer: decide('first', { accept: true, reply }) },
      { name: 'second', finalAnswer: decide('second', { accept: true, reply }) },
    ]);
    expect(parts.finalAnswer(reply, state)).toMatchObject({ details: { by: 'first' } });
  });

  it('merges reply metadata in part order and appends prompt sections once', () => {
    const parts = new AgentParts([
      { name: 'a', replyMetadata: () => ({ a: 1, shared: 'a' }), promptSection: 'A' },
      { name: 'b', replyMetadata: () => undefined },
      { name: 'c', replyMetadata: () => ({ shared: 'c' }), promptSection: 'C' },
    ]);
    expect(parts.replyMetadata(state)).toEqual({ a: 1, shared: 'c' });
    expect(parts.systemPrompt('')).toBe('A\n\nC');
    expect(parts.systemPrompt('P')).toBe('P\n\nA\n\nC');
  });

  it('admits through each admitting part in turn and stops at the first refusal', async () => {
    const seen: string[] = [];
    const refusal = assistantMsg('no');
    const admitting = (name: string, refuse: boolean): AgentPart => ({
      name,
      admit: (msgs: Msg[]): Observable<Admission> => {
        seen.push(name);
        return of(refuse ? { kind: 'refused', reply: refusal } : { kind: 'admitted', msgs });
      },
    });
    const parts = new AgentParts([
      admitting('a', false),
      admitting('b', true),
      admitting('c', false),
    ]);
    const admission = await firstValueFrom(parts.admit([userMsg('hi')], {} as CallContext)!);
    expect(admission).toEqual({ kind: 'refused', reply: refusal });
    expect(seen).toEqual(['a', 'b']);
  });

  it('wraps the steps with the first part outermost', () => {
    const order: string[] = [];
    const wrapping = (name: string): AgentPart => ({
      name,
      wrapSteps: (next) => (step) => {
        order.push(name);
        return next(step);
      },
    });
    const parts = new AgentParts([wrapping('outer'), wrapping('inner')]);
    parts.wrapSteps(() => of(), state, [], true)({ kind: 'reason' });
    expect(order).toEqual(['outer', 'inner']);
  });
});
