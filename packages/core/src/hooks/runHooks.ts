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
    let current = event;
    let index = 0;
    // Holds every hook subscription: a synchronous Observable resumes the chain before its own
    // subscribe() returns, so a single "current inner" variable would lose the pending one.
    const inner = new Subscription();

    const accept = (result: unknown): void => {
      if (result !== undefined && result !== null)
        current = checkedReplacement(current, result, hooks[index - 1]);
    };

    const step = (): void => {
      while (index < hooks.length) {
        const hook = hooks[index++]!;
        const result = hook.onEvent(current);
        if (result === undefined || result === null) continue;
        if (isObservable(result) || isPromiseLike(result)) {
          waitFor(result);
          return;
        }
        accept(result);
      }
      subscriber.next(current);
      subscriber.complete();
    };

    const waitFor = (source: PromiseLike<unknown> | Observable<unknown>): void => {
      if (!isObservable(source)) {
        source.then(
          (value) => {
            if (!subscriber.closed) resume(value);
          },
          (error: unknown) => subscriber.error(error),
        );
        return;
      }
      inner.add(
        source.pipe(last(null, undefined)).subscribe({
          next: (value) => resume(value),
          error: (error: unknown) => subscriber.error(error),
        }),
      );
    };

    const resume = (value: unknown): void => {
      try {
        accept(value);
        step();
      } catch (error) {
        subscriber.error(error);
      }
    };

    try {
      step();
    } catch (error) {
      subscriber.error(error);
    }
    return inner;
  });
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
