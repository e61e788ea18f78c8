import type { RunAgentInput } from '@ag-ui/core';
import {
  InvalidArgumentError,
  type Msg,
  readToolDecisions,
  textOf,
  toolResults,
} from '@rxagent/core';
import { describe, expect, it } from 'vitest';
import { agentInputOf, denyAsToolResults } from './agentInputOf.js';

function input(
  messages: RunAgentInput['messages'],
  extra: Partial<RunAgentInput> = {},
): RunAgentInput {
  return { threadId: 't', runId: 'r', messages, tools: [], context: [], ...extra };
}

describe('agentInputOf', () => {
  it('makes the last user message the input, keeping its id', () => {
    const msg = agentInputOf(
      input([
        { id: 'u1', role: 'user', content: 'old question' },
        { id: 'a1', role: 'assistant', content: 'old answer' },
        { id: 'u2', role: 'user', content: 'new question' },
      ]),
    ) as Msg;
    expect(msg).toMatchObject({ id: 'u2', role: 'user', name: 'user' });
    expect(textOf(msg)).toBe('new question');
  });

  it('joins the text parts of a multi-part user message', () => {
    const msg = agentInputOf(
      input([
        {
          id: 'u1',
          role: 'user',
          content: [
            { type: 'text', text: 'Look ' },
            { type: 'image', source: { type: 'url', value: 'https://example.com/a.png' } },
            { type: 'text', text: 'here' },
          ],
        },
      ]),
    ) as Msg;
    expect(textOf(msg)).toBe('Look here');
  });

  it('throws InvalidArgumentError naming the problem when there is nothing to answer', () => {
    expect(() => agentInputOf(input([]))).toThrow(InvalidArgumentError);
    expect(() => agentInputOf(input([{ id: 'a', role: 'assistant', content: 'hi' }]))).toThrow(
      /has role "assistant"/,
    );
    expect(() => agentInputOf(input([{ id: 'u', role: 'user', content: '  ' }]))).toThrow(
      /\(u\) has no text/,
    );
  });

  it('resumes with a toolDecisions() Msg by default', () => {
    const resume = [
      { interruptId: 'c1', status: 'resolved' as const, payload: { approved: true } },
      { interruptId: 'c2', status: 'resolved' as const, payload: { approved: false } },
    ];
    const msg = agentInputOf(input([], { resume })) as Msg;
    expect(readToolDecisions(msg)).toMatchObject({
      approve: ['c1'],
      deny: { c2: 'denied by the user' },
      edit: {},
    });
  });

  it('denies an edited call for an agent that does not read toolDecisions()', () => {
    const resume = [
      {
        interruptId: 'c1',
        status: 'resolved' as const,
        payload: { approved: true, arguments: { path: 'b.txt' } },
      },
    ];
    const msg = agentInputOf(input([], { resume }), denyAsToolResults) as Msg;
    expect(toolResults(msg)[0]).toMatchObject({ id: 'c1', isError: true });
    expect(String(toolResults(msg)[0]?.output)).toMatch(
      /^\[denied\] edited arguments are not supported/,
    );
  });

  it('resumes an approval with edited arguments as a toolDecisions() edit', () => {
    const resume = [
      {
        interruptId: 'c1',
        status: 'resolved' as const,
        payload: { approved: true, arguments: { path: 'b.txt' } },
      },
    ];
    const msg = agentInputOf(input([], { resume })) as Msg;
    expect(readToolDecisions(msg)).toMatchObject({
      approve: [],
      deny: {},
      edit: { c1: { path: 'b.txt' } },
    });
  });

  it('denyAsToolResults resumes with no input when every answered call is approved', () => {
    const resume = [
      { interruptId: 'c1', status: 'resolved' as const, payload: { approved: true } },
    ];
    expect(agentInputOf(input([], { resume }), denyAsToolResults)).toBeUndefined();
  });

  it('denyAsToolResults answers denied calls with [denied] error results named from the posted tool calls', () => {
    const msg = agentInputOf(
      input(
        [
          { id: 'u', role: 'user', content: 'Book it' },
          {
            id: 'a',
            role: 'assistant',
            toolCalls: [
              { id: 'c1', type: 'function', function: { name: 'book_hotel', arguments: '{}' } },
            ],
          },
        ],
        {
          resume: [
            {
              interruptId: 'c1',
              status: 'resolved',
              payload: { approved: false, reason: 'later' },
            },
          ],
        },
      ),
      denyAsToolResults,
    ) as Msg;
    expect(msg.role).toBe('tool');
    expect(toolResults(msg)).toEqual([
      {
        type: 'tool_result',
        id: 'c1',
        name: 'book_hotel',
        output: '[denied] later',
        isError: true,
      },
    ]);
  });

  it('uses a custom resumeInput with the decisions', () => {
    const seen: unknown[] = [];
    agentInputOf(
      input([], { resume: [{ interruptId: 'c1', status: 'cancelled' }] }),
      (decisions) => {
        seen.push({ approve: decisions.approve, deny: { ...decisions.deny } });
        return undefined;
      },
    );
    expect(seen).toEqual([{ approve: [], deny: { c1: 'cancelled' } }]);
  });
});
