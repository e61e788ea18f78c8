import type { Stoppable } from '@rxagent/core';

/**
 * The `stopAgent()` control of a postReasoning/postActing event. The agent reads `stopped`
 * from the switch, not from the event, so a hook that returns a replacement event (a spread
 * copy) can still stop the agent through either object.
 */
export class StopSwitch {
  stopped = false;

  /** `event` with `stopAgent()` and a live `stopRequested` added. */
  attach<E extends Stoppable>(event: Omit<E, keyof Stoppable>): E {
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
