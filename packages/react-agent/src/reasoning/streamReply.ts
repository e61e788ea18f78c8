import {
  type ChatChunk,
  type ChatModel,
  type ChatRequest,
  type ChatResponse,
  ChatResponseAccumulator,
  createMsg,
  type ModelResponseInfo,
  type Msg,
  newId,
} from '@rxagent/core';
import { concatMap, EMPTY, from, Observable, type Subscriber, type TeardownLogic } from 'rxjs';
import type { ReActCallState } from '../loop/reactCallState.js';
import type { StepHost } from '../loop/stepHost.js';
import { ChunkEventBuilder } from './chunkEvents.js';
import { responseToMsg } from './responseToMsg.js';

/**
 * Streams one model request into a complete assistant Msg (emitted once, then completes),
 * firing `reasoningChunk` events on the way. A stream cut by an error, an interrupt or
 * unsubscription never yields a complete reply: the text received so far is stored as an
 * assistant Msg with `metadata.partial: true`, and the error goes on.
 *
 * One `new Observable` with explicit teardown rather than a chain of operators: with nobody
 * listening, each chunk goes straight from the model's subscriber to the accumulator, and
 * an open request holds one subscriber here instead of four.
 */
export function streamReply(
  host: StepHost,
  state: ReActCallState,
  model: ChatModel,
  request: ChatRequest,
): Observable<Msg> {
  return new Observable<Msg>((subscriber) =>
    // Only the stream goes on: closures made in `receiveReply` must not keep `request` (the
    // wire messages) alive, or a parked call would hold its conversation once more.
    receiveReply(
      host,
      state,
      model.stream({ ...request, signal: state.context.signal }),
      subscriber,
    ),
  );
}

/** Feeds `stream` into an accumulator and `subscriber`; returns the teardown. */
function receiveReply(
  host: StepHost,
  state: ReActCallState,
  stream: Observable<ChatChunk>,
  subscriber: Subscriber<Msg>,
): TeardownLogic {
  const accumulator = new ChatResponseAccumulator();
  // Flat (see newId): the step holds it for as long as the model streams.
  const draftId = newId();
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
  const fail = (error: unknown): void => {
    keepPartial();
    subscriber.error(error);
  };
  const complete = (): void => {
    // The openai v6 stream iterator ends quietly when aborted: a stream that "completed"
    // under an aborted signal was cut, not finished.
    if (signal.aborted) {
      fail(signal.reason);
      return;
    }
    let reply: Msg;
    try {
      const response = accumulator.response();
      settled = true;
      state.context.addUsage(response.usage);
      state.lastResponse = responseInfo(response);
      reply = responseToMsg(response, host.name, draftId);
    } catch (error) {
      fail(error);
      return;
    }
    subscriber.next(reply);
    subscriber.complete();
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
  const subscription = events
    ? stream
        .pipe(concatMap((chunk) => notifyChunk(host, events, accumulator, chunk)))
        .subscribe({ error: fail, complete })
    : // Nobody listens: a chunk only feeds the accumulator, with no inner Observable per chunk.
      stream.subscribe({ next: (chunk) => accumulator.add(chunk), error: fail, complete });
  return () => {
    subscription.unsubscribe();
    keepPartial();
  };
}

/** Only what hooks report (not the text or tool calls, which the reply holds). */
function responseInfo(response: ChatResponse): ModelResponseInfo {
  return {
    ...(response.usage !== undefined && { usage: response.usage }),
    ...(response.finishReason !== undefined && { finishReason: response.finishReason }),
  };
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
