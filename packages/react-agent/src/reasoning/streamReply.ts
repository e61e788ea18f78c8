import { randomUUID } from 'node:crypto';
import {
  type ChatChunk,
  type ChatModel,
  type ChatRequest,
  ChatResponseAccumulator,
  createMsg,
  type Msg,
} from '@rxagent/core';
import { concatMap, count, defer, EMPTY, finalize, from, map, type Observable, tap } from 'rxjs';
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
    const stream = model.stream({ ...request, signal });
    // Nobody listens: a chunk only feeds the accumulator, with no inner Observable per chunk.
    const chunks = events
      ? stream.pipe(concatMap((chunk) => notifyChunk(host, events, accumulator, chunk)))
      : stream.pipe(tap((chunk) => accumulator.add(chunk)));
    const complete = (): Msg => {
      // The openai v6 stream iterator ends quietly when aborted: a stream that "completed"
      // under an aborted signal was cut, not finished.
      if (signal.aborted) throw signal.reason;
      const response = accumulator.response();
      settled = true;
      state.context.addUsage(response.usage);
      return responseToMsg(response, host.name, draftId);
    };
    // count() emits once, when the stream completes: one operator where concat(chunks,
    // defer(complete)) took five subscriptions per model request.
    return chunks.pipe(count(), map(complete), tap({ error: keepPartial }), finalize(keepPartial));
  });
}

/** Accumulates `chunk` and runs the hooks on its events, one after another. */
function notifyChunk(
  host: StepHost,
  events: ChunkEventBuilder,
  accumulator: ChatResponseAccumulator,
  chunk: ChatChunk,
): Observable<unknown> {
  accumulator.add(chunk);
  const chunkEvents = events.eventsOf(chunk);
  if (chunkEvents.length === 0) return EMPTY;
  if (chunkEvents.length === 1) return host.notify(chunkEvents[0]!);
  return from(chunkEvents).pipe(concatMap((event) => host.notify(event)));
}
