import {
  type ActingChunkEvent,
  type JsonObject,
  type JsonValue,
  type PostActingEvent,
  type PreActingEvent,
  type ToolResultBlock,
  type ToolUseBlock,
  toolOutputText,
} from '@rxagent/core';
import { concatMap, defer, EMPTY, map, type Observable, of, tap } from 'rxjs';
import type { ReActCallState } from '../loop/reactCallState.js';
import { stableStringify } from '../loop/stableStringify.js';
import type { StepHost } from '../loop/stepHost.js';
import { StopSwitch } from '../loop/stopSwitch.js';

/** How one tool call runs. */
export interface ToolCallSetup {
  readonly dedupe: boolean;
  /** Raw argument text of calls whose arguments were not a JSON object, by call id. */
  readonly invalidArguments: JsonObject;
}

/** A finished tool call: the result as postActing hooks left it, and whether one asked to stop. */
export interface ToolCallOutcome {
  readonly result: ToolResultBlock;
  readonly stopRequested: boolean;
}

/**
 * Runs one tool call: preActing hooks (may change the input, never the id), the toolkit
 * (its chunks fire actingChunk events; every failure is an error result), postActing hooks
 * (may change the result, never its id). Identical repeated calls within the agent call are
 * answered without running. Cold; emits one outcome.
 */
export function runToolCall(
  host: StepHost,
  state: ReActCallState,
  call: ToolUseBlock,
  setup: ToolCallSetup,
): Observable<ToolCallOutcome> {
  const preActing: PreActingEvent = { type: 'preActing', agent: host.agent, toolCall: call };
  return host.notify(preActing).pipe(
    map((event) =>
      event.toolCall.id === call.id ? event.toolCall : { ...event.toolCall, id: call.id },
    ),
    concatMap((toolCall) =>
      // Raw (invalid) argument text counts only while no hook replaced the input.
      execute(
        host,
        state,
        toolCall,
        toolCall.input === call.input ? setup.invalidArguments[call.id] : undefined,
        setup,
      ).pipe(concatMap((result) => postActing(host, toolCall, result))),
    ),
  );
}

function execute(
  host: StepHost,
  state: ReActCallState,
  call: ToolUseBlock,
  raw: JsonValue | undefined,
  setup: ToolCallSetup,
): Observable<ToolResultBlock> {
  return defer(() => {
    const tool = state.toolkit.get(call.name);
    const key = `${call.name}\u0000${stableStringify(call.input)}`;
    const dedupe =
      setup.dedupe && typeof raw !== 'string' && tool !== undefined && tool.dedupe !== false;
    if (dedupe) {
      const previous = state.seenCalls.get(key);
      if (previous) return of(duplicateResult(call, previous));
      state.seenCalls.set(key, { id: call.id });
    }
    return state.toolkit
      .execute(
        typeof raw === 'string'
          ? { id: call.id, name: call.name, rawArguments: raw }
          : { id: call.id, name: call.name, input: call.input },
        { signal: state.context.signal, toolCallId: call.id, agent: host.agent },
      )
      .pipe(
        concatMap((event) => {
          if (event.type === 'result') return of(event.result);
          if (!host.hasEventListeners()) return EMPTY;
          const chunk: ActingChunkEvent = {
            type: 'actingChunk',
            agent: host.agent,
            toolCall: call,
            chunk: event.output,
          };
          return host.notify(chunk).pipe(concatMap(() => EMPTY));
        }),
        tap((result) => {
          if (!dedupe) return;
          // A failed call may be worth retrying with the same arguments; only successes are remembered.
          if (result.isError) state.seenCalls.delete(key);
          else state.seenCalls.set(key, { id: call.id, result: toolOutputText(result) });
        }),
      );
  });
}

function postActing(
  host: StepHost,
  toolCall: ToolUseBlock,
  result: ToolResultBlock,
): Observable<ToolCallOutcome> {
  const stop = new StopSwitch();
  const event = stop.attach<PostActingEvent>(
    { type: 'postActing', agent: host.agent, toolCall, result },
    host.hasEventListeners(),
  );
  return host.notify(event).pipe(
    map((final) => ({
      result: final.result.id === toolCall.id ? final.result : { ...final.result, id: toolCall.id },
      stopRequested: stop.stopped,
    })),
  );
}

const PREVIOUS_RESULT_LIMIT = 2_000;

function duplicateResult(
  call: ToolUseBlock,
  previous: { readonly id: string; readonly result?: string },
): ToolResultBlock {
  const earlier =
    previous.result === undefined
      ? `It is identical to call ${previous.id} of the same batch; use that call's result.`
      : `It is identical to call ${previous.id}, which returned:\n${truncate(previous.result)}`;
  return {
    type: 'tool_result',
    id: call.id,
    name: call.name,
    output: `[duplicate] Not run again: "${call.name}" was already called with these arguments in this turn. ${earlier}`,
  };
}

function truncate(text: string): string {
  return text.length <= PREVIOUS_RESULT_LIMIT ? text : `${text.slice(0, PREVIOUS_RESULT_LIMIT)}…`;
}
