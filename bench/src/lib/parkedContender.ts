import { BenchModel } from '../contenders/benchModel.js';
import type { Contender } from '../contenders/contender.js';
import { handLoopInProcess, rxagentInProcess } from '../contenders/inProcess.js';
import { nodeHttpLoop } from '../contenders/nodeHttpLoop.js';
import { rxagentHttp } from '../contenders/rxagentHttp.js';
import { PARK_PROMPT } from '../scenario/conversation.js';
import { ServerProcess } from '../server/serverProcess.js';
import { delay } from './stats.js';

/** One contender that the heap tools park: `park()` parks `count` conversations. */
export interface ParkedContender {
  readonly contender: Contender;
  /**
   * Starts `count` conversations and resolves once all of them wait at their last model call
   * (and 300 ms more), with what aborts them and waits for their end.
   */
  park(): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/**
 * The contender `which` of the heap tools (`heapOwners.ts`, `heapRetainers.ts`): in process
 * (`rxagent-local`, `hand-local`, on a `BenchModel` that parks) or over HTTP against the bench
 * server (`rxagent`, `node`).
 */
export async function parkedContender(which: string, count: number): Promise<ParkedContender> {
  const server = which.endsWith('-local') ? undefined : await ServerProcess.start();
  const model = new BenchModel();
  const makers: Record<string, () => Contender> = {
    'rxagent-local': () => rxagentInProcess(() => model),
    'hand-local': () => handLoopInProcess(() => model),
    ...(server && { rxagent: () => rxagentHttp(server.baseURL) }),
    ...(server && { node: () => nodeHttpLoop(server.baseURL) }),
  };
  const contender = makers[which]?.();
  if (!contender) {
    await server?.close();
    throw new Error(`unknown contender ${which}; one of ${Object.keys(makers)}`);
  }
  const park = async () => {
    if (server) await server.resetParked();
    else model.parked = 0;
    const controllers = Array.from({ length: count }, () => new AbortController());
    const runs = controllers.map((c) => contender.run(PARK_PROMPT, c.signal).catch(() => {}));
    if (server) await server.waitParked(count);
    else while (model.parked < count) await delay(5);
    await delay(300);
    return async () => {
      for (const c of controllers) c.abort();
      await Promise.all(runs);
    };
  };
  return { contender, park, close: async () => server?.close() };
}
