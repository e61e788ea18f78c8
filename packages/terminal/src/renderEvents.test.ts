import { type AgentBase, type AgentEvent, Toolkit, tool, userMsg } from '@rxagent/core';
import { ScriptedChatModel } from '@rxagent/core/testing';
import { ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom, Observable, of, Subject, throwError, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { capture, steppingClock } from '../test/outputs.js';
import { renderEvents } from './renderEvents.js';
import { shouldColor } from './style.js';

const agent = { name: 'bot' } as unknown as AgentBase;
const chunk: AgentEvent = {
  type: 'reasoningChunk',
  agent,
  delta: { text: 'partial' },
  accumulated: {
    id: 'd',
    name: 'bot',
    role: 'assistant',
    content: [],
    metadata: {},
    timestamp: '',
  },
};

describe('renderEvents', () => {
  it('renders a real agent call: tool call, result, streamed answer, timing and usage', async () => {
    const double = tool({
      name: 'double',
      description: 'Doubles a number.',
      parameters: z.object({ n: z.number() }),
      execute: ({ n }) => String(n * 2),
    });
    const model = new ScriptedChatModel([
      {
        toolCalls: [{ name: 'double', arguments: { n: 21 } }],
        usage: { inputTokens: 20, outputTokens: 4 },
      },
      { text: 'The answer is 42.', usage: { inputTokens: 30, outputTokens: 5 } },
    ]);
    const bot = new ReActAgent({
      name: 'bot',
      sysPrompt: 'Be brief.',
      model,
      toolkit: new Toolkit([double]),
    });
    const out = capture();
    await lastValueFrom(
      bot.stream(userMsg('Double 21')).pipe(renderEvents({ out, clock: steppingClock() })),
    );
    expect(out.text).toMatch(
      /^→ double \{"n":21\}\n← double: 42 · 0\.1 s\nbot: The answer is 42\.\n✓ \d+\.\d s · 50 in \/ 9 out tokens\n$/,
    );
  });

  it('forwards every event unchanged and completes with the source', async () => {
    const reply: AgentEvent = { type: 'reply', msg: { ...chunk.accumulated, content: [] } };
    const events = await lastValueFrom(
      of(chunk, reply).pipe(renderEvents({ out: capture() }), toArray()),
    );
    expect(events).toHaveLength(2);
    expect(events[0]).toBe(chunk);
    expect(events[1]).toBe(reply);
  });

  it('prints an error and passes it on', async () => {
    const out = capture();
    const failing = throwError(() => new Error('model down'));
    await expect(
      lastValueFrom(failing.pipe(renderEvents({ out, clock: steppingClock() }))),
    ).rejects.toThrow('model down');
    expect(out.text).toBe('✗ failed after 0.1 s: model down\n');
  });

  it('ends an open line and unsubscribes the source when unsubscribed', () => {
    const out = capture();
    let tornDown = false;
    const never = new Observable<AgentEvent>((subscriber) => {
      subscriber.next(chunk);
      return () => {
        tornDown = true;
      };
    });
    const subscription = never.pipe(renderEvents({ out })).subscribe();
    expect(out.text).toBe('bot: partial');
    subscription.unsubscribe();
    expect(tornDown).toBe(true);
    expect(out.text).toBe('bot: partial\n');
  });

  it('times each subscription from its own start', () => {
    const out = capture();
    const source = new Subject<AgentEvent>();
    const rendered = source.pipe(renderEvents({ out, clock: steppingClock() }));
    const subscription = rendered.subscribe();
    source.next({ type: 'reply', msg: { ...chunk.accumulated, metadata: {} } });
    subscription.unsubscribe();
    expect(out.text).toBe('✓ 0.1 s\n');
  });

  it('colours by default only for a TTY without NO_COLOR', async () => {
    const tty = capture(true);
    await lastValueFrom(of(chunk).pipe(renderEvents({ out: tty })));
    expect(tty.text.includes('\u001b[')).toBe(shouldColor(tty));
    expect(shouldColor({ isTTY: true }, {})).toBe(true);
    expect(shouldColor({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(shouldColor({ isTTY: false }, {})).toBe(false);
  });
});
