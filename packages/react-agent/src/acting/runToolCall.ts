import {
  type ActingChunkEvent,
  ApprovalPendingError,
  freezeJson,
  type JsonObject,
  type JsonValue,
  journaledToolRun,
  Phases,
  type PostActingEvent,
  type PreActingEvent,
  type ToolCallRequest,
  type ToolDecisionMetadata,
  type ToolEvent,
  type ToolExecutionContext,
  type ToolResultBlock,
  type ToolResultKind,
  type ToolResume,
  type ToolUseBlock,
  toolErrorOf,
  toolOutputText,
  truncateResult,
} from '@rxagent/core';
import {
  concatMap,
  EMPTY,
  Observable,
  type Observer,
  of,
  type Subscription,
  type TeardownLogic,
} from 'rxjs';
import type { Resolutions } from '../loop/decisions.js';
import type { ReActCallState } from '../loop/reactCallState.js';
import { StopSwitch } from '../loop/stopSwitch.js';
import { DenySwitch, deniedResult } from './denySwitch.js';
import { stableStringify } from './stableStringify.js';

/** How one tool call runs. */
export interface ToolCallSetup {
  readonly dedupe: boolean;
  /** Raw argument text of calls whose arguments were not a JSON object, by call id. */
  readonly invalidArguments: JsonObject;
  /**
   * What was decided about calls before they reach preActing, by id (a human's decisions,
   * approval rules, remembered approvals): refused (`deny`, the reason), run with other
   * arguments (`input`), and the `decision` recorded on the result Msg.
   */
  readonly resolved?: Resolutions;
  /**
   * Suspended calls that go on (their tool gets `context.resume`), by id. They pass
   * preActing again (a hook may deny them; a changed input is not sent again).
   */
  readonly resumed?: ReadonlyMap<string, ToolResume>;
}

/**
 * A finished tool call: the result as postActing hooks left it (cut to the tool's
 * `resultLimit`), whether one asked to stop, why the framework rather than the tool
 * answered, if it did, and the metadata for its Msg (what hooks put in `event.metadata`,
 * plus `truncated = { originalChars }` when it was cut).
 */
export interface ToolCallOutcome {
  readonly result: ToolResultBlock;
  readonly stopRequested: boolean;
  readonly kind?: ToolResultKind;
  readonly metadata?: JsonObject;
  /**
   * Set when the tool ended with an `ApprovalPendingError` (calls inside it wait for a
   * human): the call stays open, `result` is not stored, and no postActing event fired.
   */
  readonly suspended?: ApprovalPendingError;
}

/**
 * Runs one tool call: preActing hooks (may change the input, never the id), the toolkit
 * (its chunks fire actingChunk events; every failure is an error result), postActing hooks
 * (see the whole result; may change it, never its id), then the result is cut to
 * `toolkit.resultLimit(name)` characters (`truncateResult`). Identical repeated calls within
 * the agent call are answered without running; a call denied by a preActing hook
 * (`deny(reason)`) or in `setup.denied` gets a `[denied]` error result without running.
 * Cold; emits one outcome.
 *
 * The phases run in one `new Observable` (see `Phases`); with nobody listening, the hooks
 * are skipped without an Observable, so a call costs little more than its tool.
 */
export function runToolCall(
  state: ReActCallState,
  model: ToolUseBlock,
  setup: ToolCallSetup,
): Observable<ToolCallOutcome> {
  return new Observable<ToolCallOutcome>((subscriber) =>
    startToolCall(state, model, setup, subscriber),
  );
}

/**
 * What subscribing to `runToolCall` does, for a batch that runs its calls without an
 * Observable around each (see `StartInner`): the outcome goes to `sink`, which must pass on
 * nothing after its end, as a subscriber would. Returns what stops the call.
 */
export function startToolCall(
  state: ReActCallState,
  model: ToolUseBlock,
  setup: ToolCallSetup,
  sink: Observer<ToolCallOutcome>,
): Subscription {
  const phases = new Phases(sink);
  const { context } = state;
  const deny = new DenySwitch();
  const resolution = setup.resolved?.[model.id];
  const decision = resolution?.decision;
  // An edited call runs with the human's arguments; memory keeps the model's.
  const edited = resolution?.input;
  // Frozen like the model's block: hooks see only frozen tool calls.
  const call = edited === undefined ? model : Object.freeze({ ...model, input: edited });
  const resume = setup.resumed?.get(call.id);
  const execute = (event: PreActingEvent): void => {
    const toolCall =
      event.toolCall.id === call.id ? event.toolCall : { ...event.toolCall, id: call.id };
    if (deny.reason !== undefined) {
      postActing(toolCall, deniedResult(toolCall, deny.reason), 'denied');
      return;
    }
    // Raw (invalid) argument text counts only while neither a human nor a hook replaced the input.
    const raw = toolCall.input === model.input ? setup.invalidArguments[call.id] : undefined;
    const run = new ToolCallRun(state, toolCall, raw, setup.dedupe, resume);
    const onResult = (result: ToolResultBlock): void => {
      run.remember(result);
      const error = toolErrorOf(result);
      if (error instanceof ApprovalPendingError) {
        phases.finish({ result, stopRequested: false, suspended: error });
        return;
      }
      postActing(
        toolCall,
        result,
        run.duplicate ? 'duplicate' : run.inDoubt ? 'in_doubt' : resultKind(result, context.signal),
      );
    };
    const start = (): void => {
      // Nobody listens to the tool's chunks: take its result event straight from the run.
      if (context.listens('actingChunk')) phases.after(run.result(), onResult);
      else phases.hold(run.start(new ResultObserver(phases, onResult)));
    };
    // A durable call marks the tool started in a checkpoint before it runs.
    const started = state.checkpoints?.beforeTool(toolCall);
    if (started) phases.after(started, start);
    else start();
  };
  const postActing = (
    toolCall: ToolUseBlock,
    result: ToolResultBlock,
    kind: ToolResultKind | undefined,
  ): void => {
    const stop = new StopSwitch();
    const error = toolErrorOf(result);
    const event = stop.attach<PostActingEvent>(
      {
        type: 'postActing',
        agent: context.agent,
        toolCall,
        // Frozen now rather than when its Msg is built: hooks assign a new result, never
        // change this one (the tool Msg's freeze then skips it).
        result: freezeJson(result),
        ...(kind !== undefined && { resultKind: kind }),
        ...(error !== undefined && { error }),
      },
      context.listens('postActing'),
    );
    phases.afterHooks(context, event, (final) =>
      phases.finish(outcome(state, final, stop.stopped, kind, decision)),
    );
  };
  const refused = resolution?.deny;
  if (refused !== undefined) postActing(call, deniedResult(call, refused), 'denied');
  else
    phases.afterHooks(
      context,
      deny.attach(
        { type: 'preActing', agent: context.agent, toolCall: call },
        context.listens('preActing'),
      ),
      execute,
    );
  return phases.subscription;
}

/** The stored form of a postActing event as hooks left it: its id kept, its text cut. */
function outcome(
  state: ReActCallState,
  event: PostActingEvent,
  stopRequested: boolean,
  kind: ToolResultKind | undefined,
  decision: ToolDecisionMetadata | undefined,
): ToolCallOutcome {
  const { toolCall } = event;
  const result =
    event.result.id === toolCall.id ? event.result : { ...event.result, id: toolCall.id };
  // A long result is offloaded (the `offload` option) instead of truncated.
  const offloaded = state.offload?.offload(result);
  const cut = offloaded
    ? { result: offloaded.result, offloaded: offloaded.offloaded }
    : truncateResult(result, state.toolkit.resultLimit(toolCall.name));
  let metadata =
    'offloaded' in cut
      ? { ...event.metadata, offloaded: cut.offloaded }
      : cut.truncated === undefined
        ? event.metadata
        : { ...event.metadata, truncated: cut.truncated };
  if (decision !== undefined)
    metadata = { ...metadata, decision: decision as unknown as JsonObject };
  return {
    result: cut.result,
    stopRequested,
    ...(kind !== undefined && { kind }),
    ...(metadata !== undefined && { metadata }),
  };
}

/** An error result that arrived once the call was aborted is the toolkit's interrupted result. */
function resultKind(result: ToolResultBlock, signal: AbortSignal): ToolResultKind | undefined {
  return result.isError && signal.aborted ? 'interrupted' : undefined;
}

/**
 * What a tool run gets: the call's signal and agent, its remaining budget (when it has one)
 * and where a sub-agent's usage is reported.
 */
/**
 * What a tool run gets: the call's signal and agent, what its budget has left and where to
 * report usage spent inside it, who is asking, how a suspended call goes on (`resume`), and
 * where a streamed call takes a sub-agent's events (`forwardEvent`).
 */
function toolContext(
  state: ReActCallState,
  toolCallId: string,
  resume: ToolResume | undefined,
): ToolExecutionContext {
  const { context, meter } = state;
  const budget = meter.remaining();
  const { callContext } = context.options;
  const { forwardEvent } = context;
  return {
    signal: context.signal,
    toolCallId,
    agent: context.agent,
    reportUsage: meter.report,
    ...(budget !== undefined && { budget }),
    ...(callContext !== undefined && { callContext }),
    ...(resume !== undefined && { resume }),
    ...(forwardEvent !== undefined && { forwardEvent }),
  };
}

/** One execution of a tool call by the toolkit, answered from `seenCalls` when a duplicate. */
class ToolCallRun {
  /** Whether the call was answered as a duplicate instead of run. */
  duplicate = false;
  /** Whether a durable engine's retry found the call started with no recorded result. */
  inDoubt = false;
  readonly #key: string;
  readonly #dedupe: boolean;

  constructor(
    private readonly state: ReActCallState,
    private readonly call: ToolUseBlock,
    private readonly raw: JsonValue | undefined,
    dedupe: boolean,
    private readonly resume?: ToolResume,
  ) {
    const tool = state.toolkit.get(call.name);
    // One flat string (see stableStringify): keys live as long as the agent call.
    this.#key = stableStringify(call.input, `${call.name}\u0000`);
    this.#dedupe = dedupe && typeof raw !== 'string' && tool !== undefined && tool.dedupe !== false;
  }

  /**
   * The toolkit's result for this call, each chunk before it notified as an actingChunk
   * event when anyone listens; a duplicate gets its result at once, without a run.
   */
  result(): Observable<ToolResultBlock> {
    return this.events().pipe(concatMap((event) => this.#notifyChunk(event)));
  }

  /** The toolkit's events for this call (chunks, then the result); a duplicate's result at once. */
  events(): Observable<ToolEvent> {
    const duplicate = this.#duplicate();
    if (duplicate !== undefined) return of(duplicate);
    return this.#journaled(this.state.toolkit.execute(this.#request(), this.#context()));
  }

  /**
   * What subscribing to `events()` does, with `sink` as the subscriber (it must behave like
   * one), without an Observable around the run: the toolkit's `startExecute`. Returns the
   * teardown that stops the run.
   */
  start(sink: Observer<ToolEvent>): TeardownLogic {
    if (this.state.context.options.journal !== undefined) return this.events().subscribe(sink);
    const duplicate = this.#duplicate();
    if (duplicate !== undefined) {
      sink.next(duplicate);
      sink.complete();
      return undefined;
    }
    return this.state.toolkit.startExecute(this.#request(), this.#context(), sink);
  }

  /** Under a durable engine's journal, the run as journaled steps (see `journaledToolRun`). */
  #journaled(events: Observable<ToolEvent>): Observable<ToolEvent> {
    const { journal } = this.state.context.options;
    if (journal === undefined) return events;
    const idempotent = this.state.toolkit.get(this.call.name)?.idempotent === true;
    return journaledToolRun(journal, this.call, idempotent, events, () => {
      this.inDoubt = true;
    });
  }

  /** The result event of a duplicate (the call is not run), or `undefined`: then it is run. */
  #duplicate(): ToolEvent | undefined {
    if (!this.#dedupe) return undefined;
    const previous = this.state.seenCalls.get(this.#key);
    if (previous) {
      this.duplicate = true;
      return { type: 'result', result: duplicateResult(this.call, previous) };
    }
    this.state.seenCalls.set(this.#key, { id: this.call.id });
    return undefined;
  }

  #request(): ToolCallRequest {
    const { call, raw } = this;
    return typeof raw === 'string'
      ? { id: call.id, name: call.name, rawArguments: raw }
      : { id: call.id, name: call.name, input: call.input };
  }

  #context(): ToolExecutionContext {
    return toolContext(this.state, this.call.id, this.resume);
  }

  /** Records the result for dedupe: only successes (a failed call may be worth retrying). */
  remember(result: ToolResultBlock): void {
    if (!this.#dedupe) return;
    if (result.isError) this.state.seenCalls.delete(this.#key);
    else this.state.seenCalls.set(this.#key, { id: this.call.id, result: toolOutputText(result) });
  }

  #notifyChunk(event: ToolEvent): Observable<ToolResultBlock> {
    if (event.type === 'result') return of(event.result);
    const { context } = this.state;
    const chunk: ActingChunkEvent = {
      type: 'actingChunk',
      agent: context.agent,
      toolCall: this.call,
      chunk: event.output,
    };
    return context.notify(chunk).pipe(concatMap(() => EMPTY));
  }
}

/**
 * Takes the result event of a tool's events to `onResult` as a phase (its chunks skipped:
 * nobody listens to them), like `Phases.after` on the result alone, without an Observable
 * to filter the events.
 */
class ResultObserver implements Observer<ToolEvent> {
  // Not a #private field: with rxjs's `useDeprecatedNextContext`, methods run on a copy.
  private received = false;

  constructor(
    private readonly phases: Phases<ToolCallOutcome>,
    private readonly onResult: (result: ToolResultBlock) => void,
  ) {}

  next(event: ToolEvent): void {
    if (event.type !== 'result' || this.received) return;
    this.received = true;
    this.phases.run(this.onResult, event.result);
  }

  error(error: unknown): void {
    this.phases.fail(error);
  }

  complete(): void {
    if (!this.received) this.phases.end();
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

/** What a tool run gets: the call's signal, its id, the agent and who is asking. */
