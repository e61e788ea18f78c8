import {
  type ActingChunkEvent,
  type JsonObject,
  type JsonValue,
  type PostActingEvent,
  type PreActingEvent,
  type ToolEvent,
  type ToolResultBlock,
  type ToolUseBlock,
  toolOutputText,
} from '@rxagent/core';
import { concatMap, EMPTY, Observable, of } from 'rxjs';
import type { ReActCallState } from '../loop/reactCallState.js';
import { stableStringify } from '../loop/stableStringify.js';
import type { StepHost } from '../loop/stepHost.js';
import { StepPhases } from '../loop/stepPhases.js';
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
 *
 * The phases run in one `new Observable` (see `StepPhases`); with nobody listening, the
 * hooks are skipped without an Observable, so a call costs little more than its tool.
 */
export function runToolCall(
  host: StepHost,
  state: ReActCallState,
  call: ToolUseBlock,
  setup: ToolCallSetup,
): Observable<ToolCallOutcome> {
  return new Observable<ToolCallOutcome>((subscriber) => {
    const phases = new StepPhases(subscriber);
    const execute = (event: PreActingEvent): void => {
      const toolCall =
        event.toolCall.id === call.id ? event.toolCall : { ...event.toolCall, id: call.id };
      // Raw (invalid) argument text counts only while no hook replaced the input.
      const raw = toolCall.input === call.input ? setup.invalidArguments[call.id] : undefined;
      const run = new ToolCallRun(host, state, toolCall, raw, setup.dedupe);
      phases.after(run.events(), (toolEvent) => {
        if (toolEvent.type !== 'result') return;
        run.remember(toolEvent.result);
        postActing(toolCall, toolEvent.result);
      });
    };
    const postActing = (toolCall: ToolUseBlock, result: ToolResultBlock): void => {
      const stop = new StopSwitch();
      const event = stop.attach<PostActingEvent>(
        { type: 'postActing', agent: host.agent, toolCall, result },
        host.hasEventListeners(),
      );
      phases.afterHooks(host, event, (final) =>
        phases.finish({
          result:
            final.result.id === toolCall.id ? final.result : { ...final.result, id: toolCall.id },
          stopRequested: stop.stopped,
        }),
      );
    };
    phases.afterHooks(host, { type: 'preActing', agent: host.agent, toolCall: call }, execute);
    return phases.subscription;
  });
}

/** One execution of a tool call by the toolkit, answered from `seenCalls` when a duplicate. */
class ToolCallRun {
  readonly #key: string;
  readonly #dedupe: boolean;

  constructor(
    private readonly host: StepHost,
    private readonly state: ReActCallState,
    private readonly call: ToolUseBlock,
    private readonly raw: JsonValue | undefined,
    dedupe: boolean,
  ) {
    const tool = state.toolkit.get(call.name);
    // One flat string (see stableStringify): keys live as long as the agent call.
    this.#key = stableStringify(call.input, `${call.name}\u0000`);
    this.#dedupe = dedupe && typeof raw !== 'string' && tool !== undefined && tool.dedupe !== false;
  }

  /**
   * The toolkit's events for this call (chunks, then one result), each chunk notified as
   * an actingChunk event first when anyone listens; a duplicate gets its result at once.
   */
  events(): Observable<ToolEvent> {
    if (this.#dedupe) {
      const previous = this.state.seenCalls.get(this.#key);
      if (previous) return of({ type: 'result', result: duplicateResult(this.call, previous) });
      this.state.seenCalls.set(this.#key, { id: this.call.id });
    }
    const { call, host, raw } = this;
    const events = this.state.toolkit.execute(
      typeof raw === 'string'
        ? { id: call.id, name: call.name, rawArguments: raw }
        : { id: call.id, name: call.name, input: call.input },
      { signal: this.state.context.signal, toolCallId: call.id, agent: host.agent },
    );
    if (!host.hasEventListeners()) return events;
    return events.pipe(concatMap((event) => this.#notifyChunk(event)));
  }

  /** Records the result for dedupe: only successes (a failed call may be worth retrying). */
  remember(result: ToolResultBlock): void {
    if (!this.#dedupe) return;
    if (result.isError) this.state.seenCalls.delete(this.#key);
    else this.state.seenCalls.set(this.#key, { id: this.call.id, result: toolOutputText(result) });
  }

  #notifyChunk(event: ToolEvent): Observable<ToolEvent> {
    if (event.type === 'result') return of(event);
    const chunk: ActingChunkEvent = {
      type: 'actingChunk',
      agent: this.host.agent,
      toolCall: this.call,
      chunk: event.output,
    };
    return this.host.notify(chunk).pipe(concatMap(() => EMPTY));
  }
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
