import {
  type AgentBase,
  type AgentEvent,
  assistantMsg,
  createMsg,
  type Msg,
  userMsg,
} from '@rxagent/core';
import { describe, expect, it } from 'vitest';
import { formatEnd, formatEvent } from './formatEvent.js';
import { initialRenderState, type RenderState } from './renderState.js';

const agent = { name: 'bot' } as unknown as AgentBase;
const draft = assistantMsg('', { name: 'bot', id: 'draft-1' });

const chunk = (text: string, thinking?: string): AgentEvent => ({
  type: 'reasoningChunk',
  agent,
  delta: { text, ...(thinking !== undefined && { thinking }) },
  accumulated: draft,
});

/** Renders `events` in order from `state`, returning all text and the final state. */
function render(events: AgentEvent[], state = initialRenderState(), now = 0) {
  let text = '';
  let current: RenderState = state;
  for (const event of events) {
    const rendered = formatEvent(event, current, now);
    text += rendered.text;
    current = rendered.state;
  }
  return { text, state: current };
}

const reply = (msg: Msg): AgentEvent => ({ type: 'reply', msg });

describe('formatEvent', () => {
  it('writes streamed text deltas as they come, with the speaker once and no newline', () => {
    const first = render([chunk('Hello')]);
    expect(first.text).toBe('bot: Hello');
    const second = render([chunk(' world')], first.state);
    expect(second.text).toBe(' world');
  });

  it('closes an open stream line before printing a tool call with compact JSON arguments', () => {
    const { text } = render([
      chunk('Let me check.'),
      {
        type: 'preActing',
        agent,
        toolCall: { type: 'tool_use', id: 'c1', name: 'get_weather', input: { city: 'Shanghai' } },
      },
    ]);
    expect(text).toBe('bot: Let me check.\n→ get_weather {"city":"Shanghai"}\n');
  });

  it('shows the first line of a tool result, and marks errors and duplicates', () => {
    const call = { type: 'tool_use', id: 'c1', name: 'read_file', input: {} } as const;
    const result = (output: string, isError?: boolean, duplicate?: boolean): AgentEvent => ({
      type: 'postActing',
      agent,
      toolCall: call,
      result: {
        type: 'tool_result',
        id: 'c1',
        name: 'read_file',
        output,
        ...(isError && { isError }),
      },
      ...(duplicate && { resultKind: 'duplicate' as const }),
    });
    const { text } = render([
      result('line one\nline two'),
      result('Invalid path:\n  escapes the root', true),
      result('[duplicate] Not run again', false, true),
    ]);
    expect(text).toBe(
      '← read_file: line one …\n✗ read_file: Invalid path: escapes the root\n↺ read_file: [duplicate] Not run again\n',
    );
  });

  it('truncates a long tool result line', () => {
    const { text } = render([
      {
        type: 'postActing',
        agent,
        toolCall: { type: 'tool_use', id: 'c1', name: 't', input: {} },
        result: { type: 'tool_result', id: 'c1', name: 't', output: 'x'.repeat(500) },
      },
    ]);
    expect(text.length).toBeLessThan(200);
    expect(text).toContain('…');
  });

  it('ends with the elapsed time and token usage, without repeating a streamed reply', () => {
    const start = initialRenderState({ startedAt: 1_000 });
    const final = createMsg({
      id: 'draft-1',
      name: 'bot',
      role: 'assistant',
      content: 'Hi there',
      metadata: {
        generateReason: 'stop',
        usage: { inputTokens: 345, outputTokens: 67, totalTokens: 412 },
      },
    });
    const { text } = render(
      [chunk('Hi there'), { type: 'postReasoning', agent, reply: final }, reply(final)],
      start,
      2_200,
    );
    expect(text).toBe('bot: Hi there\n✓ 1.2 s · 345 in / 67 out tokens\n');
  });

  it('prints a reply that was not streamed, and marks an interrupt', () => {
    const final = assistantMsg('I noticed that you interrupted me.', {
      name: 'bot',
      metadata: { generateReason: 'interrupted', interrupted: true },
    });
    const { text } = render([chunk('partial'), reply(final)]);
    expect(text).toBe(
      'bot: partial\nbot: I noticed that you interrupted me.\n⏹ interrupted\n✓ 0.0 s\n',
    );
  });

  it('shows judge feedback the model is about to read and the verdict on the reply', () => {
    const feedback = createMsg({
      name: 'system',
      role: 'user',
      content: '[Judge feedback] The answer misses the arithmetic.',
      metadata: { systemFeedback: true, feedback: 'judge' },
    });
    const final = assistantMsg('Done', {
      name: 'bot',
      metadata: { finishGuard: { verdict: 'pass', pass: true, rejections: 1 } },
    });
    const { text } = render([
      {
        type: 'preReasoning',
        agent,
        messages: [userMsg('q'), feedback],
        systemPrompt: '',
        tools: [],
        toolChoice: undefined,
        options: {},
      },
      reply(final),
    ]);
    expect(text).toContain('⚖ judge rejected the draft: The answer misses the arithmetic.\n');
    expect(text).toContain('⚖ judge: pass after 1 rejection\n');
  });

  it('shows a forced tool choice and a framework reminder', () => {
    const reminder = createMsg({
      name: 'system',
      role: 'user',
      content: 'Call generate_response now.',
    });
    const { text } = render([
      {
        type: 'preReasoning',
        agent,
        messages: [reminder],
        systemPrompt: '',
        tools: [],
        toolChoice: { name: 'generate_response' },
        options: {},
      },
    ]);
    expect(text).toBe(
      '↳ system: Call generate_response now.\n↳ tool choice forced: generate_response\n',
    );
  });

  it('shows a compression of old messages with message and token counts', () => {
    const summary = userMsg('[Summary of 40 earlier messages]', { name: 'system' });
    const event = (removed: number, tokensBefore: number, tokensAfter: number): AgentEvent => ({
      type: 'postCompress',
      agent,
      summary,
      removed,
      tokensBefore,
      tokensAfter,
    });
    const { text } = render([
      chunk('Thinking out loud'),
      event(40, 12_100, 3_004),
      event(1, 950, 400),
    ]);
    expect(text).toBe(
      'bot: Thinking out loud\n⇣ 40 messages → 1 · 12.1k → 3.0k tokens\n⇣ 1 message → 1 · 950 → 400 tokens\n',
    );
  });

  it('shows the truncated results among the tool messages the model is about to read', () => {
    const resultMsg = (id: string, output: string, metadata = {}) =>
      createMsg({
        name: 'bot',
        role: 'tool',
        content: [{ type: 'tool_result', id, name: 'read_file', output }],
        metadata,
      });
    const old = resultMsg('c0', 'x', { truncated: { originalChars: 99_000 } });
    const cut = resultMsg('c1', 'y'.repeat(50_000), { truncated: { originalChars: 120_000 } });
    const whole = resultMsg('c2', 'short');
    const { text } = render([
      {
        type: 'preReasoning',
        agent,
        messages: [old, userMsg('next'), assistantMsg('calling', { name: 'bot' }), cut, whole],
        systemPrompt: '',
        tools: [],
        toolChoice: undefined,
        options: {},
      },
    ]);
    expect(text).toBe('✂ read_file: result truncated, 120.0k → 50.0k characters\n');
  });

  it('shows the truncation of a tool result that ends a call stopped after acting', () => {
    const msg = createMsg({
      name: 'bot',
      role: 'tool',
      content: [{ type: 'tool_result', id: 'c1', name: 'fetch', output: 'z'.repeat(2_000) }],
      metadata: { truncated: { originalChars: 2_500_000 }, generateReason: 'acting_stopped' },
    });
    expect(render([reply(msg)]).text).toBe(
      '✂ fetch: result truncated, 2.5M → 2.0k characters\n⏸ stopped after running tools\n✓ 0.0 s\n',
    );
  });

  it('hides thinking by default and shows it on its own line when asked', () => {
    expect(render([chunk('', 'hmm')]).text).toBe('');
    const { text } = render(
      [chunk('', 'hmm'), chunk('Answer')],
      initialRenderState({ showThinking: true }),
    );
    expect(text).toBe('bot (thinking): hmm\nbot: Answer');
  });

  it('lists the pending tool calls of a reply stopped for approval', () => {
    const stopped = assistantMsg(
      [{ type: 'tool_use', id: 'c1', name: 'delete_file', input: { path: 'a.txt' } }],
      { name: 'bot', metadata: { generateReason: 'tool_calls_stopped' } },
    );
    const { text } = render([reply(stopped)]);
    expect(text).toContain(
      '⏸ stopped before running tools; pending for approval:\n  → delete_file {"path":"a.txt"}\n',
    );
  });

  it('shows each call that waits for approval as tool(args)', () => {
    const paused = assistantMsg(
      [
        { type: 'tool_use', id: 'c1', name: 'pay', input: { amount: 500 } },
        { type: 'tool_use', id: 'c2', name: 'get_weather', input: { city: 'Paris' } },
      ],
      { name: 'bot', metadata: { generateReason: 'approval_required', approvalRequired: ['c1'] } },
    );
    const { text } = render([reply(paused)]);
    expect(text).toBe('⏸ approval required: pay({"amount":500})\n✓ 0.0 s\n');
  });

  it('shows a denied call with its reason', () => {
    const call = { type: 'tool_use', id: 'c1', name: 'pay', input: {} } as const;
    const { text } = render([
      {
        type: 'postActing',
        agent,
        toolCall: call,
        resultKind: 'denied',
        result: {
          type: 'tool_result',
          id: 'c1',
          name: 'pay',
          output: '[denied] over budget',
          isError: true,
        },
      },
    ]);
    expect(text).toBe('✗ denied: over budget (pay)\n');
  });

  it('names repeated tool failures as the cause of a summary and of the end', () => {
    const instruction = userMsg('stop', {
      name: 'system',
      metadata: { feedback: 'tool_failures' },
    });
    const summary = render([
      { type: 'preSummary', agent, messages: [instruction], systemPrompt: '' },
    ]);
    expect(summary.text).toBe('↯ repeated tool failures: one last answer without tools\n');
    const ended = assistantMsg('', { name: 'bot', metadata: { generateReason: 'tool_failures' } });
    expect(render([reply(ended)]).text).toContain('↯ ended after repeated tool failures\n');
  });

  it('says when the answer was cut at the output-token limit', () => {
    const cut = assistantMsg('The first half', {
      name: 'bot',
      metadata: { generateReason: 'length' },
    });
    expect(render([reply(cut)]).text).toContain('✂ answer cut at the output-token limit\n');
  });

  it('shows a guardrail that blocked or redacted, and a reply it refused', () => {
    const verdict = (tripped: boolean, replaced: boolean) =>
      render([
        {
          type: 'guardrail',
          agent,
          guardrail: 'pii',
          stage: 'toolResult',
          tripped,
          replaced,
          reason: 'email',
        },
      ]).text;
    expect(verdict(true, false)).toBe('🛡 guardrail pii blocked a tool result: email\n');
    expect(verdict(false, true)).toBe('🛡 guardrail pii redacted a tool result: email\n');
    expect(verdict(false, false)).toBe('');
    const refused = assistantMsg('No.', {
      name: 'bot',
      metadata: { generateReason: 'guardrail', guardrail: { guardrail: 'pii', stage: 'input' } },
    });
    expect(render([reply(refused)]).text).toContain('🛡 refused by guardrail pii (input)\n');
  });

  it('prints the typed object of a structured reply', () => {
    const final = assistantMsg('{"total":3}', {
      name: 'bot',
      metadata: { generateReason: 'structured_output', response: { total: 3 } },
    });
    expect(render([reply(final)]).text).toBe('◆ structured response {"total":3}\n✓ 0.0 s\n');
  });

  it('colours output only when colour is on', () => {
    const event = chunk('x');
    expect(formatEvent(event, initialRenderState({ color: true }), 0).text).toContain('\u001b[');
    expect(formatEvent(event, initialRenderState(), 0).text).not.toContain('\u001b[');
  });

  it('prints an error event once, even when the stream then errors with it', () => {
    const error = new Error('boom');
    const shown = render([chunk('a'), { type: 'error', agent, error }]);
    expect(shown.text).toBe('bot: a\n✗ error: boom\n');
    expect(formatEnd(shown.state, 0, error).text).toBe('');
  });

  it('prints an error that no event showed, with the elapsed time', () => {
    const state = initialRenderState({ startedAt: 0 });
    expect(formatEnd(state, 2_500, new Error('busy')).text).toBe('✗ failed after 2.5 s: busy\n');
  });

  it('does not add a newline after streamed text that already ended with one', () => {
    const { text } = render([
      chunk('line\n'),
      reply(assistantMsg('line\n', { id: 'draft-1', name: 'bot' })),
    ]);
    expect(text).toBe('bot: line\n✓ 0.0 s\n');
  });
  it("indents a tool's streamed output under its call, one prefix per line", () => {
    const call = { type: 'tool_use', id: 'c1', name: 'ask_researcher', input: {} } as const;
    const other = { ...call, id: 'c2' };
    const acting = (toolCall: typeof call | typeof other, text: string): AgentEvent => ({
      type: 'actingChunk',
      agent,
      toolCall,
      chunk: text,
    });
    const { text, state } = render([
      { type: 'preActing', agent, toolCall: call },
      acting(call, 'Plan B '),
      acting(call, 'costs $12.\nSource: '),
      acting(call, 'pricing page\n'),
      acting(call, 'Done.'),
      acting(other, 'Second call.'),
      {
        type: 'postActing',
        agent,
        toolCall: call,
        result: { type: 'tool_result', id: 'c1', name: 'ask_researcher', output: 'ok' },
      },
    ]);
    expect(text).toBe(
      '→ ask_researcher {}\n' +
        '  ┆ Plan B costs $12.\n  ┆ Source: pricing page\n  ┆ Done.\n' +
        '  ┆ Second call.\n' +
        '← ask_researcher: ok\n',
    );
    expect(state.open).toBeUndefined();
  });

  it('marks a reply that hands the conversation off, with its reason', () => {
    const handoff = (metadata: Record<string, unknown>) =>
      reply(
        assistantMsg('Handed off to billing: refund', {
          name: 'bot',
          metadata: { generateReason: 'handoff', ...metadata } as never,
        }),
      );
    expect(render([handoff({ handoff: { to: 'billing', reason: 'refund' } })]).text).toContain(
      '⇢ handoff to billing (refund)\n',
    );
    expect(render([handoff({ handoff: { to: 'billing' } })]).text).toContain(
      '⇢ handoff to billing\n',
    );
  });
});
