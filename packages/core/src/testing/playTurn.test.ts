import { Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { ModelError } from '../errors.js';
import type { ChatChunk } from '../model/chatModel.js';
import { playTurn } from './playTurn.js';
import type { ScriptedTurn } from './script.js';
import { planTurn } from './turnPlan.js';

const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
const plan = (turn: ScriptedTurn) => planTurn(turn, [], () => 'call_1');
const play = (turn: ScriptedTurn, signal?: AbortSignal) =>
  new Observable<ChatChunk>((subscriber) => playTurn(plan(turn), subscriber, signal));
const usage = plan({ text: 'a b' }).usage;

describe('playTurn', () => {
  it('sends every chunk at once, then completes, when nothing is delayed', () => {
    scheduler().run(({ expectObservable }) => {
      expectObservable(play({ thinking: 'hm', text: 'a b' })).toBe('(tabu|)', {
        t: { thinking: 'hm' },
        a: { text: 'a' },
        b: { text: ' b' },
        u: { usage: plan({ thinking: 'hm', text: 'a b' }).usage, finishReason: 'stop' },
      });
    });
  });

  it('waits delayMs before the first chunk and chunkDelayMs between the next ones', () => {
    scheduler().run(({ expectObservable }) => {
      expectObservable(play({ text: 'a b', delayMs: 3, chunkDelayMs: 2 })).toBe('---a-b-(u|)', {
        a: { text: 'a' },
        b: { text: ' b' },
        u: { usage, finishReason: 'stop' },
      });
    });
  });

  it('sends a tool call as its head delta, then its argument fragments', () => {
    scheduler().run(({ expectObservable }) => {
      const turn = { toolCalls: [{ name: 'f', arguments: '{"a":1}' }] };
      expectObservable(play(turn)).toBe('(hxyu|)', {
        h: { toolCalls: [{ index: 0, id: 'call_1', name: 'f' }] },
        x: { toolCalls: [{ index: 0, arguments: '{"a"' }] },
        y: { toolCalls: [{ index: 0, arguments: ':1}' }] },
        u: { usage: plan(turn).usage, finishReason: 'tool_calls' },
      });
    });
  });

  it('errors after afterChunks chunks for a scripted error, without waiting a chunk delay', () => {
    scheduler().run(({ expectObservable }) => {
      const turn = { text: 'a b c', chunkDelayMs: 2, error: { status: 503, afterChunks: 2 } };
      expectObservable(play(turn)).toBe(
        'a-(b#)',
        { a: { text: 'a' }, b: { text: ' b' } },
        new ModelError('ScriptedChatModel: scripted HTTP 503 error', {
          status: 503,
          retryable: true,
        }),
      );
    });
  });

  it('stops sending, and cancels its pending delay, when unsubscribed', () => {
    scheduler().run(({ expectObservable }) => {
      expectObservable(play({ text: 'a b c', chunkDelayMs: 2 }), '^--!').toBe('a-b', {
        a: { text: 'a' },
        b: { text: ' b' },
      });
    });
  });

  it('errors with an AbortError, and removes its listener, when the signal aborts mid-turn', () => {
    const controller = new AbortController();
    const seen: ChatChunk[] = [];
    let error: unknown;
    play({ text: 'a b c' }, controller.signal).subscribe({
      next: (chunk) => {
        seen.push(chunk);
        if (seen.length === 2) controller.abort('stop');
      },
      error: (e: unknown) => {
        error = e;
      },
    });
    expect(seen).toEqual([{ text: 'a' }, { text: ' b' }]);
    expect(error).toMatchObject({ name: 'AbortError', cause: 'stop' });
  });
});
