import { afterEach, describe, expect, it } from 'vitest';
import { ensurePromiseWithResolvers } from './withResolvers.js';

const promise = Promise as unknown as { withResolvers?: unknown };
const original = Object.getOwnPropertyDescriptor(Promise, 'withResolvers');

afterEach(() => {
  if (original) Object.defineProperty(Promise, 'withResolvers', original);
  else delete promise.withResolvers;
});

describe('ensurePromiseWithResolvers', () => {
  it('installs a working Promise.withResolvers when the runtime lacks it', async () => {
    delete promise.withResolvers;
    ensurePromiseWithResolvers();
    const made = (
      Promise as unknown as {
        withResolvers<T>(): { promise: Promise<T>; resolve(v: T): void; reject(e: unknown): void };
      }
    ).withResolvers<number>();
    made.resolve(7);
    await expect(made.promise).resolves.toBe(7);
    const failing = (
      Promise as unknown as {
        withResolvers(): { promise: Promise<never>; reject(e: unknown): void };
      }
    ).withResolvers();
    failing.reject(new Error('no'));
    await expect(failing.promise).rejects.toThrow('no');
  });

  it('keeps the runtime own one', () => {
    const own = () => 'own';
    Object.defineProperty(Promise, 'withResolvers', {
      value: own,
      configurable: true,
      writable: true,
    });
    ensurePromiseWithResolvers();
    expect(promise.withResolvers).toBe(own);
  });
});
