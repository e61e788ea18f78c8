import { Subscription, type TeardownLogic } from 'rxjs';

/**
 * The container of a `Phases`: a `Subscription` that keeps its first live teardown in a
 * field (`hold`) and only a second one, while the first is still live, in rxjs's finalizer
 * list. One phase is live at a time, so a call parked on one phase holds no finalizer array
 * (rxjs's first `add` makes one of 17 slots). Unsubscribing stops the held teardown first,
 * then whatever was added, as the list would have in the order they came.
 */
export class LiveSubscription extends Subscription {
  #live: Exclude<TeardownLogic, void> | undefined;

  /** Keeps `teardown` until this is unsubscribed (at once when this already is). */
  hold(teardown: TeardownLogic): void {
    if (!teardown || teardown === this) return;
    if (teardown instanceof Subscription && teardown.closed) return;
    if (this.closed) {
      stop(teardown);
      return;
    }
    const live = this.#live;
    if (live === undefined || (live instanceof Subscription && live.closed)) this.#live = teardown;
    else this.add(teardown);
  }

  override unsubscribe(): void {
    if (this.closed) return;
    const live = this.#live;
    this.#live = undefined;
    try {
      if (live !== undefined) stop(live);
    } finally {
      super.unsubscribe();
      // Held while the first one stopped: this was not closed yet.
      const late = this.#live;
      this.#live = undefined;
      if (late !== undefined) stop(late);
    }
  }
}

function stop(teardown: Exclude<TeardownLogic, void>): void {
  if (typeof teardown === 'function') teardown();
  else teardown.unsubscribe();
}
