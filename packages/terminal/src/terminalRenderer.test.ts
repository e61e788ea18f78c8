import { type AgentBase, type AgentEvent, type ToolUseBlock, userMsg } from '@rxagent/core';
import { ScriptedChatModel } from '@rxagent/core/testing';
import { ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom, NEVER, Subject, startWith, tap } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { capture } from '../test/outputs.js';
import { renderEvents } from './renderEvents.js';
import { isErrorRendered } from './renderedErrors.js';
import { TerminalRenderer } from './terminalRenderer.js';

const agent = { name: 'bot' } as unknown as AgentBase;
const call = (id: string, name: string): ToolUseBlock => ({
  type: 'tool_use',
  id,
  name,
  input: {},
});
const preActing = (toolCall: ToolUseBlock): AgentEvent => ({ type: 'preActing', agent, toolCall });
const postActing = (toolCall: ToolUseBlock, output: string): AgentEvent => ({
  type: 'postActing',
  agent,
  toolCall,
  result: { type: 'tool_result', id: toolCall.id, name: toolCall.name, output },
});
const ERASE = '\r\u001b[2K';

describe('TerminalRenderer', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows a waiting indicator with the elapsed time while a tool runs, in TTY mode', () => {
    const out = capture(true);
    const renderer = new TerminalRenderer({
      out,
      color: false,
      showThinking: false,
      clock: Date.now,
      progress: true,
    });
    const slow = call('c1', 'slow_report');

    renderer.event(preActing(slow));
    expect(out.text).toBe('→ slow_report {}\n⠋ slow_report · 0.0 s');

    vi.advanceTimersByTime(1_200);
    expect(out.text.endsWith(`${ERASE}⠹ slow_report · 1.2 s`)).toBe(true); // frame 12 of 10

    renderer.event(postActing(slow, 'done'));
    expect(out.text.endsWith(`${ERASE}← slow_report: done · 1.2 s\n`)).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('lists every running tool, timed from the oldest, until the last one ends', () => {
    const out = capture(true);
    const renderer = new TerminalRenderer({
      out,
      color: false,
      showThinking: false,
      clock: Date.now,
      progress: true,
    });
    const [a, b] = [call('a', 'fetch_page'), call('b', 'read_file')];
    renderer.event(preActing(a));
    vi.advanceTimersByTime(500);
    renderer.event(preActing(b));
    expect(out.text.endsWith('fetch_page, read_file · 0.5 s')).toBe(true);

    renderer.event(postActing(b, 'text'));
    expect(out.text.endsWith(`${ERASE}← read_file: text · 0.0 s\n⠴ fetch_page · 0.5 s`)).toBe(true);
    expect(vi.getTimerCount()).toBe(1);

    renderer.end();
    expect(out.text.endsWith(ERASE)).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('writes a note on a line of its own: indicator erased first, redrawn after', () => {
    const out = capture(true);
    const renderer = new TerminalRenderer({
      out,
      color: false,
      showThinking: false,
      clock: Date.now,
      progress: true,
    });
    renderer.event(preActing(call('c1', 'slow_report')));
    renderer.note('(press any key to interrupt)\n');
    expect(out.text).toBe(
      `→ slow_report {}\n⠋ slow_report · 0.0 s${ERASE}(press any key to interrupt)\n⠋ slow_report · 0.0 s`,
    );
    renderer.end();
  });

  it('closes an open streamed line before a note, and adds the missing newline', () => {
    const out = capture(false);
    const renderer = new TerminalRenderer({
      out,
      color: false,
      showThinking: false,
      clock: Date.now,
      progress: false,
    });
    renderer.event({
      type: 'reasoningChunk',
      agent,
      delta: { text: 'Scanning' },
      accumulated: { id: 'r1' },
    } as unknown as AgentEvent);
    renderer.note('hint');
    expect(out.text).toBe('bot: Scanning\nhint\n');
  });

  it('draws no indicator and starts no timer when not in progress mode', () => {
    const out = capture(false);
    const renderer = new TerminalRenderer({
      out,
      color: false,
      showThinking: false,
      clock: Date.now,
      progress: false,
    });
    const slow = call('c1', 'slow_report');
    renderer.event(preActing(slow));
    vi.advanceTimersByTime(2_000);
    renderer.event(postActing(slow, 'done'));
    expect(out.text).toBe('→ slow_report {}\n← slow_report: done · 2.0 s\n');
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('renderEvents progress', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('stops the indicator when unsubscribed while a tool runs', () => {
    vi.useFakeTimers();
    const out = capture(true);
    const running = NEVER.pipe(startWith(preActing(call('c1', 'slow'))));
    const subscription = running.pipe(renderEvents({ out })).subscribe();
    expect(vi.getTimerCount()).toBe(1);

    subscription.unsubscribe();

    expect(vi.getTimerCount()).toBe(0);
    expect(out.text.endsWith(ERASE)).toBe(true);
  });

  it('prints a failed call’s error once', async () => {
    const failing = new ReActAgent({
      name: 'bot',
      sysPrompt: 'Hi.',
      model: new ScriptedChatModel([{ error: { status: 400, message: 'bad request' } }]),
    });
    const out = capture(false);
    await expect(
      lastValueFrom(failing.stream(userMsg('Hi')).pipe(renderEvents({ out }))),
    ).rejects.toThrow('bad request');
    expect(out.text.match(/✗/g)).toHaveLength(1);
    expect(out.text).toContain('bad request');
  });

  it('prints notes pushed while a tool runs on their own line, and stops listening at the end', () => {
    vi.useFakeTimers();
    const out = capture(true);
    const notes = new Subject<string>();
    const events = new Subject<AgentEvent>();
    const slow = call('c1', 'slow');
    events
      .pipe(
        renderEvents({ out, notes, color: false }),
        tap((event) => {
          if (event.type === 'preActing') notes.next('(press any key to interrupt)\n');
        }),
      )
      .subscribe();
    expect(notes.observed).toBe(true);

    events.next(preActing(slow));
    events.next(postActing(slow, 'done'));
    events.complete();

    expect(out.text).toBe(
      `→ slow {}\n⠋ slow · 0.0 s${ERASE}(press any key to interrupt)\n⠋ slow · 0.0 s` +
        `${ERASE}← slow: done · 0.0 s\n`,
    );
    expect(notes.observed).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('marks the error it printed, so a top-level handler can tell it was shown', async () => {
    const failing = new ReActAgent({
      name: 'bot',
      sysPrompt: 'Hi.',
      model: new ScriptedChatModel([{ error: { status: 400, message: 'bad request' } }]),
    });
    const out = capture(false);
    const error = await lastValueFrom(
      failing.stream(userMsg('Hi')).pipe(renderEvents({ out })),
    ).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(Error);
    expect(isErrorRendered(error)).toBe(true);
    expect(isErrorRendered(new Error('bad request'))).toBe(false);
    expect(isErrorRendered('bad request')).toBe(false);
  });
});
