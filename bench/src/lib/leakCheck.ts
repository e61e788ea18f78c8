import { getEventListeners } from 'node:events';
import { settledHeap } from './stats.js';

/** What a process holds: heap after GC, live handles by kind, abort listeners on a signal. */
export interface Footprint {
  readonly heapBytes: number;
  /** `process.getActiveResourcesInfo()` counted by kind (Timeout, TCPSocketWrap, ...). */
  readonly resources: Record<string, number>;
  /** Listeners still registered on the long-lived signal every call was given. */
  readonly abortListeners: number;
}

function resources(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

/** The footprint once sockets and timers of finished work have closed (waits up to 3 s). */
export async function footprint(signal: AbortSignal, baseline?: Footprint): Promise<Footprint> {
  const deadline = performance.now() + 3000;
  // Aborted sockets close a few ticks after the abort: wait until no more handles than before.
  while (baseline && performance.now() < deadline) {
    const now = resources();
    const extra = Object.entries(now).some(([kind, n]) => n > (baseline.resources[kind] ?? 0));
    if (!extra) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const heapBytes = await settledHeap();
  return {
    heapBytes,
    resources: resources(),
    abortListeners: getEventListeners(signal, 'abort').length,
  };
}

/** Kinds of handles that grew between two footprints, with the growth. */
export function grownResources(before: Footprint, after: Footprint): Record<string, number> {
  const grown: Record<string, number> = {};
  for (const [kind, n] of Object.entries(after.resources)) {
    const delta = n - (before.resources[kind] ?? 0);
    if (delta > 0) grown[kind] = delta;
  }
  return grown;
}
