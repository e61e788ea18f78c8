import type { Stoppable } from '@rxagent/core';

/**
 * The `stopAgent()` control of a postReasoning/postActing event. The agent reads `stopped`
 * from the switch, not from the event, so a hook that returns a replacement event (a spread
 * copy) can still stop the agent through either object.
 */
export class StopSwitch {
  stopped = false;

  /**
   * `event` with `stopAgent()` and a live `stopRequested` added. With `listened` false (no
   * hook and no stream() subscriber will see the event, so nobody can stop) the event is
   * returned as it is: the accessors cost more than the rest of the event.
   */
  attach<E extends Stoppable>(event: Omit<E, keyof Stoppable>, listened = true): E {
    if (!listened) return event as E;
    return Object.defineProperties(event, {
      stopAgent: {
        enumerable: true,
        value: () => {
          this.stopped = true;
        },
      },
      stopRequested: { enumerable: true, get: () => this.stopped },
    }) as E;
  }
}
