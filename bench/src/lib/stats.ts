/** The median and range of a series of samples. */
export interface Summary {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly n: number;
}

/** The median, min and max of `values`. */
export function summarize(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN, n };
  const mid = Math.floor(n / 2);
  const median = n % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, min: sorted[0]!, max: sorted[n - 1]!, n };
}

/** `a[i] / b[i]` for every round i: ratios computed pair by pair, never from medians. */
export function pairRatios(a: readonly number[], b: readonly number[]): number[] {
  return a.map((value, i) => value / b[i]!);
}

/** `a[i] - b[i]` for every round i. */
export function pairDifferences(a: readonly number[], b: readonly number[]): number[] {
  return a.map((value, i) => value - b[i]!);
}

/** Heap used after a full garbage collection (the bench runs with --expose-gc). */
export async function settledHeap(): Promise<number> {
  const gc = globalThis.gc;
  if (!gc) throw new Error('Run the bench with node --expose-gc (pnpm bench does).');
  for (let i = 0; i < 4; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  return process.memoryUsage().heapUsed;
}

/** Resolves after `ms` milliseconds. */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Runs `task(i)` for i in [0, count) with at most `concurrency` in flight. */
export async function pool(
  count: number,
  concurrency: number,
  task: (i: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}
