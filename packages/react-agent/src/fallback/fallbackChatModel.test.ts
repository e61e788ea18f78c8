import type { ChatChunk, ChatModel, ChatRequest } from '@rxagent/core';
import { ModelError } from '@rxagent/core';
import { NEVER, type Observable, of, Subject, throwError } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it, vi } from 'vitest';
import { FallbackChatModel } from './fallbackChatModel.js';

const request: ChatRequest = { messages: [{ role: 'user', content: 'hi' }] };

function newScheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
}

/** A model whose nth request streams `streams[n]` (the last one repeats). */
class Scripted implements ChatModel {
  calls = 0;
  constructor(
    readonly modelName: string,
    readonly streams: (() => Observable<ChatChunk>)[],
  ) {}
  stream(): Observable<ChatChunk> {
    const make = this.streams[Math.min(this.calls, this.streams.length - 1)]!;
    this.calls++;
    return make();
  }
}

/** The chunks one synchronous request emits. */
function collect(model: ChatModel): ChatChunk[] {
  const chunks: ChatChunk[] = [];
  model.stream(request).subscribe({ next: (chunk) => chunks.push(chunk), error: () => {} });
  return chunks;
}

const outage = new ModelError('HTTP 503: down', { status: 503, retryable: true });
const overloaded = new ModelError('HTTP 529: Overloaded', { status: 529, retryable: true });
const invalid = new ModelError('HTTP 400: bad tool schema', { status: 400 });

describe('FallbackChatModel', () => {
  it('sends the request to the next model when the primary fails with a 503 before its first chunk', () => {
    newScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const primaryStream = cold<ChatChunk>('--#', {}, outage);
      const backupStream = cold<ChatChunk>('-a-b|', { a: { text: 'he' }, b: { text: 'llo' } });
      const primary = new Scripted('primary', [() => primaryStream]);
      const backup = new Scripted('backup', [() => backupStream]);
      const model = new FallbackChatModel([primary, backup]);
      expectObservable(model.stream(request)).toBe('---a-b|', {
        a: {
          text: 'he',
          model: 'backup',
          metadata: {
            fallback: [
              { model: 'primary', reason: 'failed', error: 'HTTP 503: down', status: 503 },
            ],
          },
        },
        b: { text: 'llo' },
      });
      expectSubscriptions(primaryStream.subscriptions).toBe('^-!');
      expectSubscriptions(backupStream.subscriptions).toBe('--^---!');
    });
  });

  it('names the primary as the answering model when it answers', () => {
    newScheduler().run(({ cold, expectObservable }) => {
      const primary = new Scripted('primary', [() => cold('a|', { a: { text: 'x' } })]);
      const model = new FallbackChatModel([primary, new Scripted('backup', [])]);
      expect(model.modelName).toBe('primary');
      expectObservable(model.stream(request)).toBe('a|', { a: { text: 'x', model: 'primary' } });
    });
  });

  it('falls back on 529 overloaded and on a refused connection thrown by a custom model', () => {
    newScheduler().run(({ cold, expectObservable }) => {
      const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), {
        code: 'ECONNREFUSED',
      });
      const a = new Scripted('a', [() => cold('#', {}, overloaded)]);
      const b = new Scripted('b', [() => cold('#', {}, refused)]);
      const c = new Scripted('c', [() => cold('a|', { a: { text: 'ok' } })]);
      const model = new FallbackChatModel([a, b, c]);
      expectObservable(model.stream(request)).toBe('a|', {
        a: {
          text: 'ok',
          model: 'c',
          metadata: {
            fallback: [
              { model: 'a', reason: 'failed', error: 'HTTP 529: Overloaded', status: 529 },
              { model: 'b', reason: 'failed', error: 'connect ECONNREFUSED 127.0.0.1:1' },
            ],
          },
        },
      });
    });
  });

  it('never falls back after a chunk arrived: the error goes to the caller', () => {
    newScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const backupStream = cold<ChatChunk>('a|', { a: { text: 'b' } });
      const primary = new Scripted('primary', [() => cold('a-#', { a: { text: 'x' } }, outage)]);
      const model = new FallbackChatModel([primary, new Scripted('backup', [() => backupStream])]);
      expectObservable(model.stream(request)).toBe(
        'a-#',
        { a: { text: 'x', model: 'primary' } },
        outage,
      );
      expectSubscriptions(backupStream.subscriptions).toBe([]);
    });
  });

  it('never falls back for a 400-class error, nor counts it against the circuit', () => {
    newScheduler().run(({ cold, expectObservable, flush }) => {
      const backup = new Scripted('backup', [() => cold('a|', { a: { text: 'b' } })]);
      const primary = new Scripted('primary', [() => cold('#', {}, invalid)]);
      const model = new FallbackChatModel([primary, backup], { circuit: { failures: 1 } });
      expectObservable(model.stream(request)).toBe('#', {}, invalid);
      flush();
      expect(backup.calls).toBe(0);
      expect(model.status()[0]).toEqual({ model: 'primary', state: 'closed', failures: 0 });
    });
  });

  it('errors with a ModelError naming every failure when the whole chain is down', () => {
    const model = new FallbackChatModel([
      new Scripted('a', [() => throwError(() => outage)]),
      new Scripted('b', [() => throwError(() => overloaded)]),
    ]);
    let caught: unknown;
    model.stream(request).subscribe({ error: (error: unknown) => (caught = error) });
    expect(caught).toBeInstanceOf(ModelError);
    const error = caught as ModelError;
    expect(error.message).toContain('a: HTTP 503: down; b: HTTP 529: Overloaded');
    expect(error.retryable).toBe(true);
    expect(error.status).toBe(529);
    expect(error.cause).toBe(overloaded);
  });

  it('opens a circuit after N consecutive failures, skips the model during the cooldown, then lets one trial through', () => {
    vi.useFakeTimers({ toFake: ['Date'], now: 0 });
    try {
      const primary = new Scripted('primary', [
        () => throwError(() => outage),
        () => throwError(() => outage),
        () => throwError(() => outage),
        () => of({ text: 'back' }),
      ]);
      const backup = new Scripted('backup', [() => of({ text: 'b' })]);
      const model = new FallbackChatModel([primary, backup], {
        circuit: { failures: 2, cooldownMs: 100 },
      });
      const fallbackOf = (chunks: ChatChunk[]) => chunks[0]?.metadata?.['fallback'];
      const failed = { model: 'primary', reason: 'failed', error: 'HTTP 503: down', status: 503 };
      expect(fallbackOf(collect(model))).toEqual([failed]);
      expect(model.status()[0]).toEqual({ model: 'primary', state: 'closed', failures: 1 });
      expect(fallbackOf(collect(model))).toEqual([failed]);
      expect(model.status()[0]).toEqual({ model: 'primary', state: 'open', failures: 2 });
      // During the cooldown the primary is not asked at all.
      vi.setSystemTime(99);
      expect(fallbackOf(collect(model))).toEqual([{ model: 'primary', reason: 'circuit-open' }]);
      expect(primary.calls).toBe(2);
      // After it: one trial, which fails and opens the circuit for another cooldown.
      vi.setSystemTime(100);
      expect(model.status()[0]!.state).toBe('half-open');
      expect(fallbackOf(collect(model))).toEqual([failed]);
      expect(primary.calls).toBe(3);
      vi.setSystemTime(150);
      expect(model.status()[0]!.state).toBe('open');
      collect(model);
      expect(primary.calls).toBe(3);
      // The next trial succeeds and closes the circuit.
      vi.setSystemTime(200);
      expect(collect(model)).toEqual([{ text: 'back', model: 'primary' }]);
      expect(model.status()[0]).toEqual({ model: 'primary', state: 'closed', failures: 0 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps a half-open circuit to one trial: a concurrent request skips the model', () => {
    vi.useFakeTimers({ toFake: ['Date'], now: 0 });
    try {
      const trial = new Subject<ChatChunk>();
      const primary = new Scripted('primary', [() => throwError(() => outage), () => trial]);
      const backup = new Scripted('backup', [() => of({ text: 'b' })]);
      const model = new FallbackChatModel([primary, backup], {
        circuit: { failures: 1, cooldownMs: 10 },
      });
      collect(model);
      vi.setSystemTime(10);
      const trialChunks: ChatChunk[] = [];
      const running = model.stream(request).subscribe((chunk) => trialChunks.push(chunk));
      expect(collect(model)[0]?.metadata?.['fallback']).toEqual([
        { model: 'primary', reason: 'circuit-open' },
      ]);
      trial.next({ text: 'trial' });
      expect(trialChunks).toEqual([{ text: 'trial', model: 'primary' }]);
      running.unsubscribe();
      expect(primary.calls).toBe(2);
      expect(model.status()[0]!.state).toBe('closed');
    } finally {
      vi.useRealTimers();
    }
  });

  it("does not free another request's trial when a request sent on the closed circuit is cancelled", () => {
    vi.useFakeTimers({ toFake: ['Date'], now: 0 });
    try {
      const trial = new Subject<ChatChunk>();
      const primary = new Scripted('primary', [
        () => NEVER,
        () => throwError(() => outage),
        () => trial,
      ]);
      const model = new FallbackChatModel([primary, new Scripted('b', [() => of({})])], {
        circuit: { failures: 1, cooldownMs: 10 },
      });
      const early = model.stream(request).subscribe();
      collect(model);
      vi.setSystemTime(10);
      const running = model.stream(request).subscribe();
      early.unsubscribe();
      expect(collect(model)[0]?.metadata?.['fallback']).toEqual([
        { model: 'primary', reason: 'circuit-open' },
      ]);
      expect(primary.calls).toBe(3);
      running.unsubscribe();
    } finally {
      vi.useRealTimers();
    }
  });

  it('frees a half-open trial when its request is unsubscribed without a verdict', () => {
    vi.useFakeTimers({ toFake: ['Date'], now: 0 });
    try {
      const primary = new Scripted('primary', [
        () => throwError(() => outage),
        () => NEVER,
        () => of({ text: 'second trial' }),
      ]);
      const model = new FallbackChatModel([primary, new Scripted('b', [() => of({})])], {
        circuit: { failures: 1, cooldownMs: 10 },
      });
      collect(model);
      vi.setSystemTime(10);
      model.stream(request).subscribe().unsubscribe();
      expect(collect(model)).toEqual([{ text: 'second trial', model: 'primary' }]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('unsubscribing cancels the running request and frees a half-open trial', () => {
    newScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const never = cold<ChatChunk>('-');
      const primary = new Scripted('primary', [() => never]);
      const model = new FallbackChatModel([primary]);
      expectObservable(model.stream(request), '^--!').toBe('-');
      expectSubscriptions(never.subscriptions).toBe('^--!');
    });
  });

  it('rejects an empty chain, bad circuit settings and unknown options', () => {
    expect(() => new FallbackChatModel([])).toThrow(/at least one model/);
    const one = [new Scripted('a', [])];
    expect(() => new FallbackChatModel(one, { circuit: { failures: 0 } })).toThrow(
      /circuit.failures/,
    );
    expect(() => new FallbackChatModel(one, { circut: {} } as never)).toThrow(
      /unknown option "circut" \(did you mean "circuit"\?\)/,
    );
    expect(() => new FallbackChatModel(one, { circuit: { cooldown: 5 } } as never)).toThrow(
      /unknown option "cooldown"/,
    );
  });
});
