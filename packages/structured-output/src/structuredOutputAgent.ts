import {
  type CallContext,
  type CallInput,
  type CallOptions,
  InvalidArgumentError,
  isJsonObject,
  type Msg,
  optionNames,
  StructuredOutputError,
  type StructuredOutputSchema,
  ToolError,
  textOf,
  toolOutputText,
  toolResults,
  toolUses,
  type ValidationIssue,
  validateAgainst,
} from '@rxagent/core';
import {
  type FinalAnswerDecision,
  ReActAgent,
  type ReActAgentOptions,
  type ReActCallState,
  type Transcript,
} from '@rxagent/react-agent';
import { defer, map, type Observable, of } from 'rxjs';
import {
  acceptedThinking,
  compactStructuredCall,
  modelOfCall,
  responseCallIds,
} from './compactStructuredCall.js';
import { GENERATE_RESPONSE } from './responseTool.js';
import {
  StructuredCall,
  type StructuredCallSettings,
  StructuredCallState,
} from './structuredCall.js';
import {
  isStructuredOutputReminderMode,
  reminderMsg,
  StructuredOutputReminder,
} from './structuredOutputReminder.js';
import { responseMsg, responseOf, type StructuredResponse } from './structuredResponse.js';

/** Options of `new StructuredOutputAgent(...)`. */
export interface StructuredOutputAgentOptions extends ReActAgentOptions {
  /** What happens when the model answers in plain text (default `TOOL_CHOICE`). */
  readonly reminder?: StructuredOutputReminder;
  /**
   * Failures tolerated per call (default 3): a plain-text answer and a reply whose
   * `generate_response` calls were all invalid count one each; the next one fails the call.
   */
  readonly maxStructuredRetries?: number;
}

/**
 * Reasons a structured call may end without a response but without failing: a hook paused
 * it, a tool call waits for approval (resume with the same schema), or the model handed the
 * conversation to another agent (`handoffs`; `handoffPipeline` follows the reply).
 */
const PAUSED = new Set(['tool_calls_stopped', 'acting_stopped', 'approval_required', 'handoff']);

/**
 * A ReActAgent that can answer with a validated object. `call(msgs, { structuredOutput })`
 * (a zod v4 or v3 schema, or a JSON Schema) gives the call a temporary `generate_response`
 * tool; the model may call other tools first and ends by calling it. The reply's
 * `metadata.response` is the validated value (parsed, defaults applied), its text the JSON of
 * it, and `metadata.generateReason` is `'structured_output'`. Invalid arguments go back to the
 * model as an error tool result naming each failing path; a plain-text answer is answered with
 * a forced `tool_choice` or a reminder (`reminder` option). After `maxStructuredRetries + 1`
 * failures the call errors with `StructuredOutputError`; it never returns plain text as a
 * success. Memory keeps one assistant message with the response in place of the reminders,
 * drafts and `generate_response` calls. Without `structuredOutput`, it is a plain ReActAgent.
 *
 * @example
 * ```ts
 * const agent = new StructuredOutputAgent({ name: 'extractor', sysPrompt: '...', model });
 * const Person = z.object({ name: z.string(), age: z.number().int() });
 * const person = await lastValueFrom(agent.callStructured(userMsg('Ada, 36.'), Person));
 * // or: const reply = await lastValueFrom(agent.call(msg, { structuredOutput: Person }));
 * //     reply.metadata.response
 * ```
 */
export class StructuredOutputAgent extends ReActAgent {
  /** The option names StructuredOutputAgent adds to ReActAgent's. */
  static override readonly optionKeys: readonly string[] = optionNames<
    Omit<StructuredOutputAgentOptions, keyof ReActAgentOptions>
  >({ reminder: true, maxStructuredRetries: true });

  readonly reminder: StructuredOutputReminder;
  readonly maxStructuredRetries: number;
  readonly #pending = new WeakMap<CallContext, StructuredCall>();
  readonly #settings: StructuredCallSettings;

  constructor(options: StructuredOutputAgentOptions) {
    super(options);
    const reminder = options.reminder ?? StructuredOutputReminder.TOOL_CHOICE;
    if (!isStructuredOutputReminderMode(reminder)) {
      throw new InvalidArgumentError(
        `StructuredOutputAgent "${options.name}": reminder must be StructuredOutputReminder.TOOL_CHOICE or .PROMPT, got ${JSON.stringify(reminder)}.`,
      );
    }
    const retries = options.maxStructuredRetries ?? 3;
    if (!Number.isInteger(retries) || retries < 0) {
      throw new InvalidArgumentError(
        `StructuredOutputAgent "${options.name}": maxStructuredRetries must be a non-negative integer, got ${retries}.`,
      );
    }
    this.reminder = reminder;
    this.maxStructuredRetries = retries;
    this.#settings = { agentName: this.name, reminder, maxStructuredRetries: retries };
  }

  /**
   * `call(input, { ...options, structuredOutput: schema })`, typed: emits the validated
   * response itself (`z.infer` of a zod schema, `JsonValue` for a JSON Schema) and completes.
   * Cold; unsubscribing cancels the call. Errors like `call()`, plus `InterruptedError` when
   * the call was interrupted, `ApprovalRequiredError` (its `pending` tool calls, ids and
   * names) when tool calls wait for approval, and `StructuredOutputError` when a hook paused
   * it before a response.
   */
  callStructured<S extends StructuredOutputSchema>(
    input: CallInput | undefined,
    schema: S,
    options: Omit<CallOptions, 'structuredOutput'> = {},
  ): Observable<StructuredResponse<S>> {
    return this.call(input, { ...options, structuredOutput: schema }).pipe(
      map((reply) => responseOf<StructuredResponse<S>>(reply, this.name)),
    );
  }

  protected override get supportsStructuredOutput(): boolean {
    return true;
  }

  protected override doCall(msgs: Msg[], context: CallContext): Observable<Msg> {
    const schema = context.options.structuredOutput;
    if (schema === undefined) return super.doCall(msgs, context);
    return defer(() => {
      // Checked before the input is stored, so an unusable request leaves memory untouched.
      if (this.toolkit.has(GENERATE_RESPONSE)) {
        throw new ToolError(
          `Agent "${this.name}": its toolkit has a tool named "${GENERATE_RESPONSE}", which structured output adds per call; rename that tool.`,
          GENERATE_RESPONSE,
        );
      }
      this.#pending.set(context, new StructuredCall(schema, this.#settings));
      return super.doCall(msgs, context);
    }).pipe(map((reply) => this.#requireResponse(reply)));
  }

  protected override createCallState(context: CallContext, transcript: Transcript): ReActCallState {
    const plain = super.createCallState(context, transcript);
    const call = this.#pending.get(context);
    if (call === undefined) return plain;
    this.#pending.delete(context);
    const preexisting = new Set(transcript.messages().map((msg) => msg.id));
    // The plain call's toolkit (the agent's tools and its transfer tools), plus this call's.
    const toolkit = plain.toolkit.extend([call.tool]);
    return new StructuredCallState(context, toolkit, transcript, call, preexisting);
  }

  protected override onFinalAnswer(
    reply: Msg,
    state: ReActCallState,
  ): Observable<FinalAnswerDecision> {
    if (!(state instanceof StructuredCallState)) return super.onFinalAnswer(reply, state);
    return defer(() => of(this.#rejectPlainText(reply, state)));
  }

  protected override onActingComplete(
    results: readonly Msg[],
    state: ReActCallState,
  ): Msg | undefined {
    if (!(state instanceof StructuredCallState)) return super.onActingComplete(results, state);
    const call = state.structured;
    const attempts = results
      .flatMap(toolResults)
      .filter((result) => result.name === GENERATE_RESPONSE);
    if (attempts.length === 0) return undefined;
    const valid = attempts.find((result) => !result.isError && call.hasAccepted(result.id));
    if (valid) return this.#complete(valid.id, state);
    const rejected = attempts[attempts.length - 1]!;
    const problem = `${GENERATE_RESPONSE} was rejected: ${toolOutputText(rejected)}`;
    const error = call.recordFailure(problem, this.#issuesOf(rejected.id, call));
    if (error) throw error;
    return undefined;
  }

  protected override onCallEnd(
    state: ReActCallState,
    outcome: 'complete' | 'error' | 'cancelled',
  ): void {
    super.onCallEnd(state, outcome);
    if (!(state instanceof StructuredCallState) || state.structured.succeeded) return;
    const call = state.structured;
    if (outcome === 'complete') {
      // A hook paused the call: keep its open tool calls for the resuming call, drop only reminders.
      state.transcript.delete(call.reminderIds);
      return;
    }
    const messages = state.transcript.messages();
    const callIds = responseCallIds(messages, state.preexisting);
    state.transcript.replace(compactStructuredCall(messages, { ...artefactsOf(call), callIds }));
  }

  #rejectPlainText(reply: Msg, state: StructuredCallState): FinalAnswerDecision {
    const call = state.structured;
    const text = textOf(reply).trim();
    const cut =
      reply.metadata['finishReason'] === 'length' ? ' (cut by the output-token limit)' : '';
    const problem = `the model answered in plain text${cut} instead of calling ${GENERATE_RESPONSE}: ${excerpt(text)}`;
    const error = call.recordFailure(problem);
    if (error) throw error;
    const keepDraft = text !== '';
    if (keepDraft) call.draftIds.add(reply.id);
    if (call.settings.reminder === StructuredOutputReminder.TOOL_CHOICE) {
      state.toolChoice = { name: GENERATE_RESPONSE };
      return { accept: false, keepDraft, feedback: [] };
    }
    const reminder = reminderMsg();
    call.reminderIds.add(reminder.id);
    return { accept: false, keepDraft, feedback: [reminder] };
  }

  #complete(callId: string, state: StructuredCallState): Msg {
    const call = state.structured;
    call.succeeded = true;
    const messages = state.transcript.messages();
    const callIds = responseCallIds(messages, state.preexisting);
    // The reasoning behind the accepted call would go with the message compaction drops.
    const thinking = acceptedThinking(messages, callId, callIds);
    const model = modelOfCall(messages, callId);
    const reply = responseMsg(this.name, call.responseOf(callId), thinking, model);
    state.transcript.replace(
      compactStructuredCall(messages, { ...artefactsOf(call), callIds }, reply),
    );
    return reply;
  }

  /** The validation issues of a rejected call, or `undefined` when its arguments were not even JSON. */
  #issuesOf(toolCallId: string, call: StructuredCall): readonly ValidationIssue[] | undefined {
    const messages = this.memory.messages();
    for (let index = messages.length - 1; index >= 0; index--) {
      const msg = messages[index]!;
      const use = toolUses(msg).find((block) => block.id === toolCallId);
      if (!use) continue;
      const invalid = msg.metadata['invalidToolArguments'];
      if (isJsonObject(invalid) && invalid[toolCallId] !== undefined) return undefined;
      const result = validateAgainst(call.parameters, use.input);
      return result.ok ? undefined : result.issues;
    }
    return undefined;
  }

  #requireResponse(reply: Msg): Msg {
    const reason = reply.metadata['generateReason'];
    if (reason === 'structured_output' || PAUSED.has(String(reason))) return reply;
    const lastProblem =
      reason === 'max_iterations'
        ? `the agent used all ${this.maxIters} reasoning steps (maxIters) without calling ${GENERATE_RESPONSE}`
        : reason === 'budget'
          ? `the call's budget was spent before ${GENERATE_RESPONSE} was called (${textOf(reply)})`
          : `the call ended (generateReason "${String(reason)}") on a plain-text reply, before ${GENERATE_RESPONSE} was called`;
    const fix = reason === 'budget' ? 'Raise the budget' : 'Raise maxIters';
    throw new StructuredOutputError(
      `Agent "${this.name}": ${lastProblem}. ${fix}, or check the hooks that stop the agent.`,
      { lastProblem },
    );
  }
}

function artefactsOf(call: StructuredCall) {
  return { reminderIds: call.reminderIds, draftIds: call.draftIds };
}

function excerpt(text: string): string {
  if (text === '') return '(an empty reply)';
  return JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text);
}
