import type { CallContext, Msg } from '@rxagent/core';
import { assistantMsg } from '@rxagent/core';
import { RecordingAgent } from '@rxagent/core/testing';
import { Observable } from 'rxjs';

/**
 * An agent whose call runs until its signal aborts (as a model stream does) and then errors
 * with the abort reason; `finish(text)` ends the running call normally.
 */
export class LongJobAgent extends RecordingAgent {
  #finish: ((text: string) => void) | undefined;

  /** Ends the running call with an assistant reply of `text`. */
  finish(text: string): void {
    this.#finish?.(text);
  }

  protected doCall(msgs: Msg[], context: CallContext): Observable<Msg> {
    this.record(msgs, context);
    return new Observable<Msg>((subscriber) => {
      const onAbort = (): void => subscriber.error(context.signal.reason);
      context.signal.addEventListener('abort', onAbort, { once: true });
      this.#finish = (text) => {
        subscriber.next(assistantMsg(text, { name: this.name }));
        subscriber.complete();
      };
      return () => {
        context.signal.removeEventListener('abort', onAbort);
        this.#finish = undefined;
      };
    });
  }
}
