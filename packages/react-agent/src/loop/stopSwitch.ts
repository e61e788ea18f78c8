import type { Stoppable } from '@rxagent/core';

/**
 * The `stopAgent()` control of a postReasoning/postActing event. The agent reads `stopped`
 * from the switch, not from the event, so a hook that returns a replacement event (a spread
 * copy) can still stop the agent through either object.
 */
export class StopSwitch {
  stopped = false;

  /**
   * `event` with `stopAgent()` and `stopRequested` (set by `stopAgent()`) added as plain
   * properties: an accessor would put every such event in V8's slow dictionary mode. With
   * `listened` false (no hook and no stream() subscriber will see the event, so nobody can
   * stop) the event is returned as it is.
   */
  attach<E extends Stoppable>(event: Omit<E, keyof Stoppable>, listened = true): E {
    if (!listened) return event as E;
    const stoppable = event as Omit<E, keyof Stoppable> & {
      -readonly [K in keyof Stoppable]: Stoppable[K];
    };
    stoppable.stopRequested = false;
    stoppable.stopAgent = () => {
      this.stopped = true;
      stoppable.stopRequested = true;
    };
    return stoppable as unknown as E;
  }
}
