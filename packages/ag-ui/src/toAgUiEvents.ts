import type { Event } from '@ag-ui/core';
import { type AgentEvent, checkOptions } from '@rxagent/core';
import { Observable } from 'rxjs';
import { AgUiEventMapper, type AgUiRunIds } from './agUiEventMapper.js';

/**
 * Maps the events of `agent.stream(...)` to AG-UI events for the run `ids`:
 *
 * - RUN_STARTED first;
 * - streamed text → TEXT_MESSAGE_START/CONTENT/END (one message per model turn, its id the
 *   reply's id), streamed thinking → REASONING_START/REASONING_MESSAGE_* and REASONING_END;
 * - streamed tool calls → TOOL_CALL_START/ARGS, ended (TOOL_CALL_END) when the model's reply
 *   is complete; calls that were not streamed are sent whole; each tool result →
 *   TOOL_CALL_RESULT (an error result carries `metadata.isError`);
 * - the reply → RUN_FINISHED whose `outcome` says how the call ended: `cancelled` when it was
 *   interrupted; `interrupt` with one `tool_approval` interrupt per tool call waiting for a
 *   human (`generateReason` `approval_required` or `tool_calls_stopped`; each interrupt's
 *   `id` and `toolCallId` are the call's id); else `success`. `result` is
 *   `{ messageId, generateReason }`, `usage` the reply's token usage;
 * - tool results the call's input supplies (denials answered as tool results) →
 *   TOOL_CALL_RESULT once the agent has accepted them (its next event); none when it
 *   rejects the input;
 * - a sub-agent's events (those with `path`: an `agent.asTool()` agent at any depth) → a
 *   SUBAGENT_STARTED (its `name`, `parentToolCallId` when one tool call of its caller runs,
 *   `parentSubagentRunId` below the top) … SUBAGENT_FINISHED (`result`, a `suspended`
 *   outcome listing the interrupts it raised itself when it stopped for approval) or
 *   SUBAGENT_ERROR run, its text, reasoning, tool calls and results mapped as above with its
 *   `subagentRunId`; an interrupt for a call it made carries that `subagentRunId` and its
 *   `metadata.path`, and is answered by the call's id like any other;
 * - an error → RUN_ERROR (`code` is the `AgentError` code), after closing open messages;
 *   an event that cannot be translated (the mapper throws) ends the run with RUN_ERROR too,
 *   and cancels the call.
 *
 * Cold: each subscription subscribes to `events` once (so it runs the call once). Emits the
 * AG-UI events in order and completes after RUN_FINISHED or RUN_ERROR: it never errors,
 * except with a TypeError, before anything, when `ids` has an unknown key. Unsubscribing unsubscribes `events`, which cancels the call.
 *
 * @example
 * ```ts
 * toAgUiEvents(agent.stream(userMsg('Hi')), { threadId: 't1', runId: 'r1' })
 *   .subscribe((event) => res.write(encoder.encodeSSE(event)));
 * ```
 */
export function toAgUiEvents(events: Observable<AgentEvent>, ids: AgUiRunIds): Observable<Event> {
  return new Observable<Event>((subscriber) => {
    try {
      checkOptions(ids, ['threadId', 'runId', 'input'], 'toAgUiEvents()');
    } catch (error) {
      subscriber.error(error);
      return;
    }
    const mapper = new AgUiEventMapper(ids);
    const emit = (out: readonly Event[]): void => {
      for (const event of out) subscriber.next(event);
    };
    emit(mapper.start());
    return events.subscribe({
      next: (event) => {
        let out: readonly Event[];
        try {
          out = mapper.next(event);
        } catch (error) {
          // An event the mapper cannot translate ends the run (and cancels the call) rather
          // than throwing inside a subscriber, where nobody could catch it.
          emit(mapper.fail(error));
          subscriber.complete();
          return;
        }
        emit(out);
      },
      error: (error: unknown) => {
        emit(mapper.fail(error));
        subscriber.complete();
      },
      complete: () => {
        // A source that ends without a reply (not a stream() of a call) still ends the run.
        emit(mapper.fail(new Error('The agent event stream completed without a reply.')));
        subscriber.complete();
      },
    });
  });
}
