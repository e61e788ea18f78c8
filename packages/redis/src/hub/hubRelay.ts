import { AgentBase, InvalidArgumentError, type Msg } from '@rxagent/core';
import { defer, type Observable, throwError } from 'rxjs';

/**
 * The one subscriber a local participant has for a `RedisMsgHub`: observing the
 * participant's reply appends it to the topic's stream. AgentBase awaits that observe before
 * the reply reaches its caller, so a reply is in Redis before the caller sees it. Internal.
 */
export class HubRelay extends AgentBase {
  readonly #append: (from: string, msg: Msg) => Promise<unknown>;
  readonly #speaker: string;

  constructor(
    speaker: AgentBase,
    topic: string,
    append: (from: string, msg: Msg) => Promise<unknown>,
  ) {
    super({ name: `${speaker.name}@${topic}` });
    this.#speaker = speaker.name;
    this.#append = append;
  }

  protected doCall(): Observable<Msg> {
    return throwError(
      () => new InvalidArgumentError(`${this.name} relays replies to Redis; it cannot be called.`),
    );
  }

  protected override doObserve(msg: Msg): Observable<void> {
    return defer(async () => {
      await this.#append(this.#speaker, msg);
    });
  }
}
