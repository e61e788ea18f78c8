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
 * the request fails. Unsubscribing aborts the request and cancels a task still running.
 */
export function exchange(setup: ExchangeSetup): Observable<TurnEnd> {
  const { client, context } = setup;
  return new Observable<TurnEnd>((subscriber) => {
    const controller = new AbortController();
    const turn = new RemoteTurn();
    const chunks = new Subscription();
    let cancelWanted = false;
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
    };
    context.signal.addEventListener('abort', onAbort, { once: true });
    if (context.signal.aborted) onAbort();
    let text = '';
    const emitChunk = (delta: string): Promise<void> => {
      text += delta;
      const event: ReasoningChunkEvent = {
        type: 'reasoningChunk',
        agent: context.agent,
        delta: { text: delta },
        accumulated: assistantMsg(text, { name: setup.agentName }),
      };
      return new Promise<void>((resolve, reject) => {
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
        if (added !== '' && context.listens('reasoningChunk')) await emitChunk(added);
        // A follow-up's first task snapshot still shows the state it is leaving.
        if (turn.ended && response.payload?.$case !== 'task') break;
      }
    };
    run().then(
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
      if (!turn.ended) {
        cancelWanted = true;
        sendCancel();
      }
      controller.abort();
      chunks.unsubscribe();
    };
  });
}
