import type { DurableOptions } from '../durable/durableOptions.js';
import type { Hook } from '../hooks/hook.js';
import type { StructuredOutputSchema } from './callOptions.js';

/** Options every agent accepts. */
export interface AgentBaseOptions {
  readonly name: string;
  readonly description?: string;
  readonly hooks?: readonly Hook[];
  readonly id?: string;
  /**
   * Makes the agent's calls survive the death of their process: a checkpoint (its
   * `stateDict()` plus the progress of the running call) is saved under `key` in `session`
   * when a call starts, at each step boundary and when it ends, its memory's messages in
   * sealed segments written once (`<key>~seg.…`), and `recover()` continues an unfinished
   * call in another process. See the "Durable runs" guide. `undefined` is the same as
   * leaving it out (so `AgentHost`'s `create` can pass on the `durable` it receives).
   */
  readonly durable?: DurableOptions | undefined;
}

/** Options of `recover()`: what a checkpoint cannot hold. */
export interface RecoverOptions {
  /** Aborting it cancels the recovered call, like unsubscribing. */
  readonly signal?: AbortSignal;
  /** The schema of a structured-output call being recovered (StructuredOutputAgent). */
  readonly structuredOutput?: StructuredOutputSchema;
  /**
   * Only the call whose input's first Msg has this id (a request being retried, e.g. by a
   * worker that took over another's run): continued when unfinished, its stored reply
   * emitted when finished; a checkpoint of another call is only loaded, and nothing emitted.
   */
  readonly inputId?: string;
}
