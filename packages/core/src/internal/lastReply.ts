import { Observable } from 'rxjs';
import type { Msg } from '../message/msg.js';

/**
 * The last Msg `produce()` emits, or `noReply()` as an error when it completes without one.
 * Cold; `produce` runs on subscription (a throw in it errors the result). One subscriber for
 * the whole call, where `defer` + `last()` + `map()` would keep three.
 */
export function lastReply(produce: () => Observable<Msg>, noReply: () => Error): Observable<Msg> {
  return new Observable<Msg>((subscriber) => {
    let reply: Msg | undefined;
    return produce().subscribe({
      next: (msg) => {
        reply = msg;
      },
      error: (error: unknown) => subscriber.error(error),
      complete: () => {
        if (reply === undefined) {
          subscriber.error(noReply());
          return;
        }
        subscriber.next(reply);
        subscriber.complete();
      },
    });
  });
}
