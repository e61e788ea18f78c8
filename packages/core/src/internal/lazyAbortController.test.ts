import { afterEach, describe, expect, it, vi } from 'vitest';
import { LazyAbortController } from './lazyAbortController.js';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** Counts the AbortControllers constructed from now on. */
function countAbortControllers(): { readonly count: number } {
  const counter = { count: 0 };
  vi.stubGlobal(
    'AbortController',
    class extends AbortController {
      constructor() {
        super();
        counter.count++;
      }
    },
  );
  return counter;
}

describe('LazyAbortController', () => {
  it('creates no AbortController until the signal is read', () => {
    const created = countAbortControllers();
    const controller = new LazyAbortController();
    controller.abort(new Error('never read'));
    expect(created.count).toBe(0);
    expect(controller.signal.aborted).toBe(true);
    expect(created.count).toBe(1);
  });

  it('gives a signal read before abort() the abort and its reason', () => {
    const controller = new LazyAbortController();
    const signal = controller.signal;
    const onAbort = vi.fn();
    signal.addEventListener('abort', onAbort);
    const reason = new Error('stop');
    controller.abort(reason);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(reason);
    expect(onAbort).toHaveBeenCalledOnce();
  });

  it('gives a signal first read after abort() the first reason, already aborted', () => {
    const controller = new LazyAbortController();
    const reason = new DOMException('late', 'TimeoutError');
    controller.abort(reason);
    controller.abort(new Error('second abort is ignored'));
    expect(controller.signal.aborted).toBe(true);
    expect(controller.signal.reason).toBe(reason);
  });

  it('returns the same signal on every read', () => {
    const controller = new LazyAbortController();
    expect(controller.signal).toBe(controller.signal);
  });

  it('defaults the reason to an AbortError, as AbortController does', () => {
    const controller = new LazyAbortController();
    controller.abort();
    expect(controller.signal.reason).toMatchObject({ name: 'AbortError' });
  });
});
