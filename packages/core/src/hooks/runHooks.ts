import { isObservable, last, Observable, of, Subscription } from 'rxjs';
import type { Hook } from './hook.js';
import type { HookEvent } from './hookEvent.js';

/**
 * Runs `hooks` on `event` one after another and emits the event as the last hook left it,
 * then completes. Cold. Synchronous hooks run synchronously (no scheduler hop); a hook's
 * Promise or Observable is awaited before the next hook runs. A hook that throws, rejects
 * or errors makes the result error with that same error; unsubscribing stops the chain.
 */
export function runHooks<E extends HookEvent>(hooks: readonly Hook[], event: E): Observable<E> {
  if (hooks.length === 0) return of(event);
  return new Observable<E>((subscriber) => {
    const live = new Subscription();
    dispatchHooks(
      hooks,
      event,
      (final) => {
        subscriber.next(final);
        subscriber.complete();
      },
      (error) => subscriber.error(error),
      live,
    );
    return live;
  });
}

/**
 * `runHooks` without an Observable, for the hot path: runs `hooks` on `event` and calls
 * `done` with the event as the last hook left it — at once when every hook is synchronous —
 * or `fail` with the first error. A hook's Promise or Observable is awaited before the next
 * hook runs; its subscription goes into `live`, and once `live` is closed (the caller left)
 * nothing more runs and neither callback is called. A throw in `done` goes to `fail`.
 */
export function dispatchHooks<E extends HookEvent>(
  hooks: readonly Hook[],
  event: E,
  done: (event: E) => void,
  fail: (error: unknown) => void,
  live: Subscription,
): void {
  // Synchronous hooks (the usual case) run in this loop, with no closure per dispatch; the
  // first hook that returns a Promise or an Observable hands the rest to `continueAfter`.
  let current = event;
  try {
    for (let index = 0; index < hooks.length; index++) {
      const hook = hooks[index]!;
      const result = hook.onEvent(current);
      if (result === undefined || result === null) continue;
      if (isObservable(result) || isPromiseLike(result)) {
        continueAfter(hooks, index + 1, current, result, done, fail, live);
        return;
      }
      current = checkedReplacement(current, result, hook);
    }
    done(current);
  } catch (error) {
    fail(error);
  }
}

/**
 * The rest of a `dispatchHooks` once hook `next - 1` returned `pending`: waits for it, then
 * runs hooks `next`… the same way (waiting for each asynchronous one in turn).
 */
function continueAfter<E extends HookEvent>(
  hooks: readonly Hook[],
  next: number,
  event: E,
  pending: PromiseLike<unknown> | Observable<unknown>,
  done: (event: E) => void,
  fail: (error: unknown) => void,
  live: Subscription,
): void {
  let current = event;
  let index = next;

  const step = (): void => {
    while (index < hooks.length) {
      const hook = hooks[index++]!;
      const result = hook.onEvent(current);
      if (result === undefined || result === null) continue;
      if (isObservable(result) || isPromiseLike(result)) {
        waitFor(result);
        return;
      }
      current = checkedReplacement(current, result, hook);
    }
    done(current);
  };

  const resume = (value: unknown): void => {
    if (live.closed) return;
    try {
      if (value !== undefined && value !== null)
        current = checkedReplacement(current, value, hooks[index - 1]);
      step();
    } catch (error) {
      fail(error);
    }
  };

  const waitFor = (source: PromiseLike<unknown> | Observable<unknown>): void => {
    if (!isObservable(source)) {
      source.then(resume, (error: unknown) => {
        if (!live.closed) fail(error);
      });
      return;
    }
    // Added to `live`, not kept in a variable: a synchronous Observable resumes the chain
    // before its own subscribe() returns.
    live.add(
      source.pipe(last(null, undefined)).subscribe({
        next: resume,
        error: (error: unknown) => fail(error),
      }),
    );
  };

  waitFor(pending);
}

function checkedReplacement<E extends HookEvent>(
  current: E,
  result: unknown,
  hook: Hook | undefined,
): E {
  const candidate = result as { type?: unknown };
  if (typeof candidate !== 'object' || candidate.type !== current.type) {
    throw new TypeError(
      `Hook "${hook?.name ?? 'anonymous'}" returned ${describe(result)} for a ${current.type} event; return nothing or an event of the same type.`,
    );
  }
  return result as E;
}

function describe(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? String(value);
  const type = (value as { type?: unknown }).type;
  return type === undefined
    ? 'an object without a type'
    : `an event of type ${JSON.stringify(type)}`;
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown }).then === 'function';
}
