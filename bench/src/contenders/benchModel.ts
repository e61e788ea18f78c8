import type { ChatChunk, ChatModel, ChatRequest } from '@rxagent/core';
import { Observable } from 'rxjs';
import { scenarioTurn } from '../scenario/conversation.js';

/**
 * A lean in-process model for the memory suites: it plays the scenario (`scenarioTurn`)
 * as chunks, each in its own macrotask like chunks read from a socket, keeps nothing
 * about past requests, and parks a `[park]` conversation's last call: it never answers
 * until the request's signal aborts. Unlike `ScriptedChatModel` (whose per-request
 * snapshots would count as the agent's memory), what it retains is only the call in flight.
 */
export class BenchModel implements ChatModel {
  readonly modelName = 'bench-model';
  /** Conversations parked at their last call so far. */
  parked = 0;
  #callIds = 0;

  stream(request: ChatRequest): Observable<ChatChunk> {
    return new Observable<ChatChunk>((subscriber) => {
      const turn = scenarioTurn(request.messages);
      const signal = request.signal;
      const onAbort = () => {
        const error = new Error('BenchModel request aborted.');
        error.name = 'AbortError';
        subscriber.error(error);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      if ((turn.delayMs ?? 0) > 0) {
        this.parked++;
        return () => signal?.removeEventListener('abort', onAbort);
      }
      const chunks: ChatChunk[] = (turn.text?.match(/\s*\S+/g) ?? []).map((text) => ({ text }));
      (turn.toolCalls ?? []).forEach((call, index) => {
        const id = `call_${++this.#callIds}`;
        chunks.push({ toolCalls: [{ index, id, name: call.name }] });
        chunks.push({ toolCalls: [{ index, arguments: JSON.stringify(call.arguments) }] });
      });
      chunks.push({ finishReason: turn.toolCalls ? 'tool_calls' : 'stop' });
      let next = 0;
      let timer = setImmediate(function emit() {
        subscriber.next(chunks[next++]!);
        if (next < chunks.length) timer = setImmediate(emit);
        else subscriber.complete();
      });
      return () => {
        clearImmediate(timer);
        signal?.removeEventListener('abort', onAbort);
      };
    });
  }
}
