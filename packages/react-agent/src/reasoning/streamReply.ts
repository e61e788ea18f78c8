import { randomUUID } from 'node:crypto';
import {
  type ChatModel,
  type ChatRequest,
  ChatResponseAccumulator,
  createMsg,
  type Msg,
} from '@rxagent/core';
import {
  concat,
  concatMap,
  defer,
  EMPTY,
  finalize,
  from,
  ignoreElements,
  type Observable,
  of,
  tap,
} from 'rxjs';
import type { ReActCallState } from '../loop/reactCallState.js';
import type { StepHost } from '../loop/stepHost.js';
import { ChunkEventBuilder } from './chunkEvents.js';
import { responseToMsg } from './responseToMsg.js';

/**
 * Streams one model request into a complete assistant Msg (emitted once, then completes),
 * firing `reasoningChunk` events on the way. A stream cut by an error, an interrupt or
 * unsubscription never yields a complete reply: the text received so far is stored as an
 * assistant Msg with `metadata.partial: true`, and the error goes on.
 */
export function streamReply(
  host: StepHost,
  state: ReActCallState,
  model: ChatModel,
  request: ChatRequest,
): Observable<Msg> {
  return defer(() => {
    const accumulator = new ChatResponseAccumulator();
    const draftId = randomUUID();
    const signal = state.context.signal;
    let settled = false;
    const keepPartial = (): void => {
      if (settled) return;
      settled = true;
      const text = accumulator.text();
      if (text === '') return;
      host.memory.add(
        createMsg({
          id: draftId,
          name: host.name,
          role: 'assistant',
          content: text,
          metadata: { partial: true },
        }),
      );
    };
    const events = host.hasEventListeners()
      ? new ChunkEventBuilder(host.agent, {
          id: draftId,
          name: host.name,
          role: 'assistant',
          metadata: {},
          timestamp: new Date().toISOString(),
        })
      : undefined;
    const chunks = model.stream({ ...request, signal }).pipe(
      concatMap((chunk) => {
        accumulator.add(chunk);
        if (!events) return EMPTY;
        return from(events.eventsOf(chunk)).pipe(concatMap((event) => host.notify(event)));
      }),
      ignoreElements(),
    );
    const complete = defer(() => {
      // The openai v6 stream iterator ends quietly when aborted: a stream that "completed"
      // under an aborted signal was cut, not finished.
      if (signal.aborted) throw signal.reason;
      const response = accumulator.response();
      settled = true;
      state.context.addUsage(response.usage);
      return of(responseToMsg(response, host.name, draftId));
    });
    return concat(chunks, complete).pipe(tap({ error: keepPartial }), finalize(keepPartial));
  });
}
