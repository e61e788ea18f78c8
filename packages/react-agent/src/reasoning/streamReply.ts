import {
  type ChatChunk,
  type ChatModel,
  type ChatRequest,
  type ChatResponse,
  ChatResponseAccumulator,
  type HookRoom,
  journaledModelStream,
  type ModelResponseInfo,
  type Msg,
  newId,
  type ReasoningChunkEvent,
} from '@rxagent/core';
import {
  concatMap,
  EMPTY,
  from,
  Observable,
  type Subscriber,
  type Subscription,
  type TeardownLogic,
} from 'rxjs';
import type { ReActCallState } from '../loop/reactCallState.js';
import { ChunkEventBuilder } from './chunkEvents.js';
import { ChunkRelay, type DispatchingRoom } from './chunkRelay.js';
import { responseToMsg } from './responseToMsg.js';

/** A complete model reply as an assistant Msg, and what the model reported about its request. */
export interface StreamedReply {
  readonly reply: Msg;
  readonly info: ModelResponseInfo;
}

/**
 * Streams one model request into a complete assistant Msg (emitted once with the request's
 * usage and finish reason, then completes),
 * firing `reasoningChunk` events on the way. A stream cut by an error, an interrupt or
 * unsubscription never yields a complete reply: the text received so far is stored as an
 * assistant Msg with `metadata.partial: true`, and the error goes on.
 *
 * One `new Observable` with explicit teardown rather than a chain of operators: with nobody
 * listening, each chunk goes straight from the model's subscriber to the accumulator, and
 * an open request holds one subscriber here instead of four.
 */
export function streamReply(
  state: ReActCallState,
  model: ChatModel,
  request: ChatRequest,
): Observable<StreamedReply> {
  return new Observable<StreamedReply>((subscriber) =>
    startStreamReply(state, model, request, subscriber),
  );
}

/** Where `startStreamReply` sends the reply (once, then `complete`) or the error. */
export type ReplySink = Pick<Subscriber<StreamedReply>, 'next' | 'error' | 'complete'>;

/**
 * What subscribing to `streamReply` does, for a step that runs it as one of its own phases
 * (without an Observable around it): sends the request and feeds the reply to `sink`.
 * Returns the teardown, which cancels the request and keeps a partial reply.
 */
export function startStreamReply(
  state: ReActCallState,
  model: ChatModel,
  request: ChatRequest,
  sink: ReplySink,
): TeardownLogic {
  // Only the stream goes on: closures made in `receiveReply` must not keep `request` (the
  // wire messages) alive, or a parked call would hold its conversation once more.
  const { signal, options, agent } = state.context;
  let stream = model.stream(request.signal === signal ? request : { ...request, signal });
  // Under a durable engine's journal the request is one journaled step (replayed on retry).
  if (options.journal !== undefined)
    stream = journaledModelStream(options.journal, stream, signal, agent.name);
  return receiveReply(state, stream, sink, model.modelName);
}

/** Feeds `stream` into an accumulator and `subscriber`; returns the teardown. */
function receiveReply(
  state: ReActCallState,
  stream: Observable<ChatChunk>,
  subscriber: ReplySink,
  modelName: string,
): TeardownLogic {
  const { context, transcript } = state;
  // Made by the first chunk when nobody listens: a call parked on its request (no chunk
  // yet) holds no accumulator and its four part lists.
  let accumulator: ChatResponseAccumulator | undefined;
  // Flat (see newId): the step holds it for as long as the model streams.
  const draftId = newId();
  const signal = context.signal;
  let settled = false;
  const keepPartial = (): void => {
    if (settled) return;
    settled = true;
    state.outputGuard?.drop(); // a cut reply's held chunks never reach anyone
    if (accumulator !== undefined) transcript.addPartial(draftId, accumulator.text());
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
    let streamed: StreamedReply;
    try {
      const response = (accumulator ?? new ChatResponseAccumulator()).response();
      settled = true;
      state.meter.addRequest(response.usage, response.model ?? modelName);
      streamed = {
        reply: responseToMsg(
          response,
          transcript.agentName,
          draftId,
          modelName,
          response.toolCalls.length > 0 ? transcript.toolCallIds() : undefined,
        ),
        info: responseInfo(response),
      };
    } catch (error) {
      fail(error);
      return;
    }
    subscriber.next(streamed);
    subscriber.complete();
  };
  const events = context.listens('reasoningChunk')
    ? new ChunkEventBuilder(context.agent, {
        id: draftId,
        name: transcript.agentName,
        role: 'assistant',
        metadata: {},
        timestamp: new Date().toISOString(),
      })
    : undefined;
  let subscription: Subscription;
  const room = context as HookRoom;
  if (events && state.outputGuard === undefined && room.dispatch !== undefined) {
    const eager = new ChatResponseAccumulator();
    accumulator = eager;
    // Each chunk's events go to the hooks and `stream()` in order with no Observable per
    // event; the reply waits for the last of them (see ChunkRelay).
    const relay = new ChunkRelay(room as DispatchingRoom, (error) => {
      subscription?.unsubscribe();
      fail(error);
    });
    const next = (chunk: ChatChunk): void => {
      eager.add(chunk);
      relay.push(events.eventsOf(chunk));
    };
    const failStream = (error: unknown): void => {
      relay.live.unsubscribe();
      fail(error);
    };
    subscription = stream.subscribe({
      next,
      error: failStream,
      complete: () => relay.end(complete),
    });
    return () => {
      subscription.unsubscribe();
      relay.live.unsubscribe();
      keepPartial();
    };
  }
  if (events) {
    const eager = new ChatResponseAccumulator();
    accumulator = eager;
    // With output guardrails, chunk events wait for the reply's verdict (see OutputGuard).
    const notify =
      state.outputGuard?.hold ?? ((event: ReasoningChunkEvent) => context.notify(event));
    subscription = stream
      .pipe(concatMap((chunk) => notifyChunk(notify, events, eager, chunk)))
      .subscribe({ error: fail, complete });
  } else {
    // Nobody listens: a chunk only feeds the accumulator, with no inner Observable per chunk.
    const next = (chunk: ChatChunk): void => {
      accumulator ??= new ChatResponseAccumulator();
      accumulator.add(chunk);
    };
    subscription = stream.subscribe({ next, error: fail, complete });
  }
  return () => {
    subscription.unsubscribe();
    keepPartial();
  };
}

/** Only what hooks report (not the text or tool calls, which the reply holds). */
function responseInfo({ usage, finishReason, model }: ChatResponse): ModelResponseInfo {
  // Built directly rather than from conditional spreads: this runs once per model request.
  const info: ModelResponseInfo =
    usage === undefined
      ? finishReason === undefined
        ? {}
        : { finishReason }
      : finishReason === undefined
        ? { usage }
        : { usage, finishReason };
  return model === undefined ? info : { ...info, model };
}

/** Accumulates `chunk` and hands its events to `notify`, one after another. */
function notifyChunk(
  notify: (event: ReasoningChunkEvent) => Observable<unknown>,
  events: ChunkEventBuilder,
  accumulator: ChatResponseAccumulator,
  chunk: ChatChunk,
): Observable<unknown> {
  accumulator.add(chunk);
  const chunkEvents = events.eventsOf(chunk);
  if (chunkEvents.length === 0) return EMPTY;
  if (chunkEvents.length === 1) return notify(chunkEvents[0]!);
  return from(chunkEvents).pipe(concatMap(notify));
}
