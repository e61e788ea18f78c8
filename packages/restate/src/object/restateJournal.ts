import type { ObjectContext } from '@restatedev/restate-sdk';
import type { JsonValue, StepJournal } from '@rxagent/core';

/**
 * A `StepJournal` on one Restate invocation: each step is a `ctx.run` of that name, so a
 * retried invocation gets recorded values back without running them.
 *
 * Steps run one at a time, in the order the agent issued them: the SDK (1.17) lets one
 * journal operation be awaited at a time (a second concurrent await fails the attempt with
 * "awaitNext already pending"), and one order makes every retry issue the same steps in the
 * same order, as Restate requires. A batch's tool calls therefore run one after another.
 *
 * `failure` keeps the first error the journal itself raised (the SDK's, never a step's:
 * steps record their failures as values), so the handler passes it on to Restate (which
 * retries the invocation) instead of ending the call.
 */
export class RestateJournal implements StepJournal {
  /** The first error a `ctx.run` rejected with, if any. */
  failure: unknown;
  /** How many steps this invocation issued (replayed ones included). */
  steps = 0;
  #tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly ctx: ObjectContext) {}

  step<T extends JsonValue>(name: string, run: () => Promise<T>): Promise<T> {
    this.steps += 1;
    const step = this.#tail.then(() => this.#run(name, run));
    this.#tail = step.catch(() => undefined);
    return step;
  }

  /** Resolves once every step issued so far has settled (before the next journal operation). */
  async settled(): Promise<void> {
    await this.#tail;
  }

  async #run<T extends JsonValue>(name: string, run: () => Promise<T>): Promise<T> {
    try {
      return (await this.ctx.run<T>(name, run)) as T;
    } catch (error) {
      this.failure ??= error;
      throw error;
    }
  }
}
