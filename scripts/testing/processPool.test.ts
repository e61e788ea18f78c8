import { describe, expect, it } from 'vitest';
import { childProcessLimit, ProcessPool } from './processPool.js';

/** A task that resolves (or rejects) when the test says so, recording when it started. */
function gate(log: string[], name: string) {
  let open!: () => void;
  let fail!: (error: Error) => void;
  const done = new Promise<string>((resolve, reject) => {
    open = () => resolve(name);
    fail = reject;
  });
  return {
    task: () => {
      log.push(`start ${name}`);
      return done;
    },
    open,
    fail,
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('childProcessLimit', () => {
  it('is one per core, between 1 and 4', () => {
    expect(childProcessLimit(2)).toBe(2);
    expect(childProcessLimit(1)).toBe(1);
    expect(childProcessLimit(0)).toBe(1);
    expect(childProcessLimit(64)).toBe(4);
  });
});

describe('ProcessPool', () => {
  it('runs at most `limit` tasks at once, starting the next one as a slot frees, in order', async () => {
    const pool = new ProcessPool(2);
    const log: string[] = [];
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((name) => gate(log, name)) as [
      ReturnType<typeof gate>,
      ReturnType<typeof gate>,
      ReturnType<typeof gate>,
      ReturnType<typeof gate>,
    ];
    const all = Promise.all([a, b, c, d].map((g) => pool.run(g.task)));
    await settle();
    expect(log).toEqual(['start a', 'start b']);
    expect(pool.running).toBe(2);
    b.open();
    await settle();
    expect(log).toEqual(['start a', 'start b', 'start c']);
    a.open();
    c.open();
    await settle();
    expect(log).toEqual(['start a', 'start b', 'start c', 'start d']);
    d.open();
    expect(await all).toEqual(['a', 'b', 'c', 'd']);
    expect(pool.running).toBe(0);
  });

  it('frees the slot of a task that rejects, and passes the rejection on', async () => {
    const pool = new ProcessPool(1);
    const log: string[] = [];
    const [a, b] = [gate(log, 'a'), gate(log, 'b')];
    const first = pool.run(a.task);
    const second = pool.run(b.task);
    a.fail(new Error('boom'));
    await expect(first).rejects.toThrow('boom');
    await settle();
    expect(log).toEqual(['start a', 'start b']);
    b.open();
    expect(await second).toBe('b');
    expect(pool.running).toBe(0);
  });

  it('maps items with bounded concurrency, results in item order', async () => {
    const pool = new ProcessPool(2);
    let peak = 0;
    const results = await pool.map([30, 10, 20, 5, 15], async (ms) => {
      peak = Math.max(peak, pool.running);
      await new Promise((resolve) => setTimeout(resolve, ms));
      return ms * 2;
    });
    expect(results).toEqual([60, 20, 40, 10, 30]);
    expect(peak).toBe(2);
  });

  it('rejects a limit that is not a whole number ≥ 1', () => {
    expect(() => new ProcessPool(0)).toThrow(/limit must be a whole number ≥ 1, got 0/);
    expect(() => new ProcessPool(1.5)).toThrow(TypeError);
  });
});
