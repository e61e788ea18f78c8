import type { Message } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import {
  assistantMsg,
  type CallContext,
  InterruptedError,
  type ReasoningChunkEvent,
} from '@rxagent/core';
import { Observable, Subscription } from 'rxjs';
import { A2AError } from './a2aError.js';
import { RemoteTurn, type TurnEnd } from './remoteTurn.js';

/** What one exchange needs. */
export interface ExchangeSetup {
  readonly client: Client;
  readonly message: Message;
  readonly context: CallContext;
  readonly agentName: string;
  readonly url: string;
  readonly cancelTimeoutMs: number;
}

/**
 * Sends `message` with the SDK client's streaming send (which falls back to a plain send
 * when the card does not stream) and emits how the task ended, then completes. Each text
 * chunk is a `reasoningChunk` event of the call, when anyone listens. When the call's signal
 * aborts (an interrupt) the remote task is cancelled and the exchange waits for it to end,
 * at most `cancelTimeoutMs`, then errors with `InterruptedError`. Errors with `A2AError` when
 * the request fails. Unsubscribing aborts the request and cancels a task still running (if
 * its id has not arrived yet, the response is read on until it does, at most
 * `cancelTimeoutMs`).
 */
export function exchange(setup: ExchangeSetup): Observable<TurnEnd> {
  const { client, context } = setup;
  return new Observable<TurnEnd>((subscriber) => {
    const controller = new AbortController();
    const turn = new RemoteTurn();
    const chunks = new Subscription();
    let cancelWanted = false;
    /** Unsubscribed before the task id was known: read on until it is, to cancel the task. */
    let detached = false;
    let cancelSent = false;
    let timer: NodeJS.Timeout | undefined;
    const sendCancel = (): void => {
      if (!cancelWanted || cancelSent || turn.taskId === undefined) return;
      cancelSent = true;
      const signal = AbortSignal.timeout(setup.cancelTimeoutMs);
      void client
        .cancelTask({ id: turn.taskId, tenant: '', metadata: undefined }, { signal })
        .catch(() => undefined);
    };
    const onAbort = (): void => {
      cancelWanted = true;
      sendCancel();
      timer = setTimeout(() => controller.abort(), setup.cancelTimeoutMs);
      timer.unref();
    };
    context.signal.addEventListener('abort', onAbort, { once: true });
    if (context.signal.aborted) onAbort();
    let text = '';
    let releaseChunk: (() => void) | undefined;
    const emitChunk = (delta: string): Promise<void> => {
      text += delta;
      const event: ReasoningChunkEvent = {
        type: 'reasoningChunk',
        agent: context.agent,
        delta: { text: delta },
        accumulated: assistantMsg(text, { name: setup.agentName }),
      };
      return new Promise<void>((resolve, reject) => {
        // Unsubscribing mid-hook must not leave the read loop waiting for it forever.
        releaseChunk = resolve;
        chunks.add(context.notify(event).subscribe({ error: reject, complete: resolve }));
      });
    };
    const run = async (): Promise<void> => {
      const request = {
        tenant: '',
        message: setup.message,
        configuration: undefined,
        metadata: undefined,
      };
      for await (const response of client.sendMessageStream(request, {
        signal: controller.signal,
      })) {
        const added = turn.apply(response);
        sendCancel();
        if (detached) {
          if (cancelSent || turn.ended) break;
          continue;
        }
        if (added !== '' && context.listens('reasoningChunk')) await emitChunk(added);
        // A follow-up's first task snapshot still shows the state it is leaving.
        if (turn.ended && response.payload?.$case !== 'task') break;
      }
    };
    run()
      .finally(() => {
        clearTimeout(timer);
        if (detached) controller.abort();
      })
      .then(
        () => {
          subscriber.next(turn.end(setup.agentName));
          subscriber.complete();
        },
        (error: unknown) => {
          if (context.signal.aborted)
            subscriber.error(new InterruptedError(setup.agentName, { cause: error }));
          else
            subscriber.error(
              new A2AError(
                `The request to the A2A agent at ${setup.url} failed: ${error instanceof Error ? error.message : String(error)}`,
                setup.url,
                undefined,
                { cause: error },
              ),
            );
        },
      );
    return () => {
      context.signal.removeEventListener('abort', onAbort);
      clearTimeout(timer);
      chunks.unsubscribe();
      releaseChunk?.();
      if (!turn.ended) {
        cancelWanted = true;
        sendCancel();
      }
      if (turn.ended || cancelSent) {
        controller.abort();
        return;
      }
      detached = true;
      timer = setTimeout(() => controller.abort(), setup.cancelTimeoutMs);
      timer.unref();
    };
  });
}
