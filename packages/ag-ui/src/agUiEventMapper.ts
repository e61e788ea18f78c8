import {
  type Event,
  EventType,
  type RunAgentInput,
  type RunFinishedOutcome,
  type SubagentFinishedOutcome,
  type TokenUsage,
} from '@ag-ui/core';
import {
  AgentError,
  type AgentEvent,
  isNestedEvent,
  type Msg,
  type NestedAgentEvent,
  pendingCallPath,
  type ReasoningChunkEvent,
  replyMetadata,
  type ToolResultBlock,
  type ToolUseBlock,
  textOf,
  toolOutputText,
  toolResults,
  toolUses,
} from '@rxagent/core';
import { pendingCallsOf, runOutcomeOf } from './runOutcome.js';

/** Which AG-UI run the events of one agent call belong to. */
export interface AgUiRunIds {
  readonly threadId: string;
  readonly runId: string;
  /** The request the run answers, echoed on RUN_STARTED. */
  readonly input?: RunAgentInput;
}

const NONE: readonly Event[] = [];

/**
 * The state of one run's translation from rxagent events to AG-UI events: which text,
 * reasoning message and tool calls are open. One mapper per run; each method returns the
 * AG-UI events one input produces, in order (usually one per streamed chunk).
 */
export class AgUiEventMapper {
  readonly #ids: AgUiRunIds;
  #openText: string | undefined;
  #openReasoning: string | undefined;
  /** Messages whose text went out as TEXT_MESSAGE_* (so a whole reply is not sent twice). */
  readonly #textSent = new Set<string>();
  /** Tool calls started (TOOL_CALL_START sent) in this run, and those not yet ended. */
  readonly #callsStarted = new Set<string>();
  readonly #callsOpen = new Set<string>();
  /** Streamed tool-call index → id, for the model turn `#callsTurn`. */
  #callsByIndex = new Map<number, string>();
  #callsTurn: string | undefined;
  /**
   * TOOL_CALL_RESULTs of results the call's input supplies, held back until the agent shows
   * it accepted them (its next event): an agent that rejects them (a result for a call
   * that never waited) fails instead, and nothing is sent for a call that does not exist.
   */
  #supplied: Event[] = [];
  #finished = false;
  /** Open sub-agent invocations (SUBAGENT_STARTED sent), by path key: their subagentRunId. */
  readonly #subagents = new Map<string, string>();
  /** The latest invocation of each path, which the run's interrupts are attributed to. */
  readonly #lastSubagent = new Map<string, string>();
  /** Tool calls running at each level ('' for the streamed agent, else a path key). */
  readonly #running = new Map<string, Set<string>>();
  #subagentCount = 0;

  constructor(ids: AgUiRunIds) {
    this.#ids = ids;
  }

  /** RUN_STARTED. */
  start(): Event[] {
    const { threadId, runId, input } = this.#ids;
    return [
      {
        type: EventType.RUN_STARTED,
        threadId,
        runId,
        timestamp: Date.now(),
        ...(input !== undefined && { input }),
      },
    ];
  }

  /** The AG-UI events of one `stream()` event. */
  next(event: AgentEvent): readonly Event[] {
    if (this.#finished) return NONE;
    if (isNestedEvent(event)) return this.#nested(event);
    if (event.type === 'preActing' || event.type === 'postActing')
      this.#track('', event.toolCall.id, event.type === 'preActing');
    if (event.type === 'preCall') {
      this.#supplied = suppliedResults(event.input);
      return NONE;
    }
    if (event.type === 'error') {
      // The call failed before anything else happened: the agent took none of the results.
      this.#supplied = [];
      return NONE;
    }
    const out = this.#map(event);
    if (this.#supplied.length === 0) return out;
    const supplied = this.#supplied;
    this.#supplied = [];
    return [...supplied, ...out];
  }

  #map(event: AgentEvent): readonly Event[] {
    switch (event.type) {
      case 'reasoningChunk':
        return this.#chunk(event);
      case 'postReasoning':
        return this.#reasoned(event.reply);
      case 'postActing':
        return [...this.#closeMessages([]), resultEvent(event.result)];
      case 'reply':
        return this.#finish(event.msg);
      case 'guardrail':
        return event.tripped || event.replaced ? [guardrailEvent(event)] : NONE;
      default:
        return NONE;
    }
  }

  /**
   * A sub-agent's event (see `isNestedEvent`): its preCall opens an invocation
   * (SUBAGENT_STARTED, a child of the invocation one level up and of the tool call running
   * there, when one is), its postCall or error closes it (SUBAGENT_FINISHED, `suspended`
   * when it stopped for approval, or SUBAGENT_ERROR); its text, reasoning, tool calls and
   * results map like the streamed agent's, each carrying the invocation's `subagentRunId`.
   */
  #nested(event: Readonly<NestedAgentEvent>): readonly Event[] {
    const key = event.path.join('/');
    if (event.type === 'preCall') return this.#subagentStarted(event, key);
    const subagentRunId = this.#subagents.get(key);
    if (subagentRunId === undefined) return NONE;
    switch (event.type) {
      case 'postCall':
        return this.#subagentEnded(key, [
          ...this.#closeMessages([]),
          {
            type: EventType.SUBAGENT_FINISHED,
            subagentRunId,
            result: {
              messageId: event.reply.id,
              generateReason: String(event.reply.metadata['generateReason'] ?? 'stop'),
            },
            outcome: subagentOutcome(event.reply),
          },
        ]);
      case 'error':
        return this.#subagentEnded(key, [
          ...this.#closeMessages([]),
          {
            type: EventType.SUBAGENT_ERROR,
            subagentRunId,
            message: event.error instanceof Error ? event.error.message : String(event.error),
            ...(event.error instanceof AgentError && { code: event.error.code }),
          },
        ]);
      case 'preActing':
      case 'postActing':
        this.#track(key, event.toolCall.id, event.type === 'preActing');
        break;
      default:
        break;
    }
    return this.#map(event).map((out) => ({ ...out, subagentRunId }) as Event);
  }

  #subagentStarted(event: Readonly<NestedAgentEvent>, key: string): Event[] {
    const subagentRunId = `${this.#ids.runId}:${key}:${++this.#subagentCount}`;
    const { path } = event;
    const parentKey = path.length > 2 ? path.slice(0, -1).join('/') : '';
    const parentSubagentRunId = this.#subagents.get(parentKey);
    const running = this.#running.get(parentKey);
    const parentToolCallId = running?.size === 1 ? [...running][0] : undefined;
    this.#subagents.set(key, subagentRunId);
    this.#lastSubagent.set(key, subagentRunId);
    const { description } = event.agent;
    return [
      ...this.#closeMessages([]),
      {
        type: EventType.SUBAGENT_STARTED,
        subagentRunId,
        name: path[path.length - 1]!,
        ...(description !== '' && { description }),
        ...(parentSubagentRunId !== undefined && { parentSubagentRunId }),
        ...(parentToolCallId !== undefined && { parentToolCallId }),
      },
    ];
  }

  #subagentEnded(key: string, out: Event[]): Event[] {
    this.#subagents.delete(key);
    this.#running.delete(key);
    return out;
  }

  /** Records that tool call `id` started (or ended) at the level `key`. */
  #track(key: string, id: string, started: boolean): void {
    let running = this.#running.get(key);
    if (running === undefined) {
      if (!started) return;
      running = new Set();
      this.#running.set(key, running);
    }
    if (started) running.add(id);
    else running.delete(id);
  }

  /** Closes whatever is open, then RUN_ERROR with the error's message and code. */
  fail(error: unknown): Event[] {
    if (this.#finished) return [];
    this.#finished = true;
    this.#supplied = [];
    const out = this.#closeMessages([]);
    this.#closeCalls(out);
    out.push({
      type: EventType.RUN_ERROR,
      message: error instanceof Error ? error.message : String(error),
      ...(error instanceof AgentError && { code: error.code }),
      timestamp: Date.now(),
    });
    return out;
  }

  #chunk(event: Readonly<ReasoningChunkEvent>): readonly Event[] {
    const { delta, accumulated } = event;
    const out: Event[] = [];
    if (delta.thinking) this.#thinking(accumulated.id, delta.thinking, out);
    if (delta.text) this.#text(accumulated.id, delta.text, out);
    if (delta.toolCall) this.#toolCallDelta(accumulated, delta.toolCall, out);
    return out;
  }

  #thinking(msgId: string, delta: string, out: Event[]): void {
    const messageId = `${msgId}:reasoning`;
    if (this.#openReasoning !== messageId) {
      this.#closeMessages(out);
      this.#openReasoning = messageId;
      out.push({ type: EventType.REASONING_START, messageId });
      out.push({ type: EventType.REASONING_MESSAGE_START, messageId, role: 'reasoning' });
    }
    out.push({ type: EventType.REASONING_MESSAGE_CONTENT, messageId, delta });
  }

  #text(messageId: string, delta: string, out: Event[]): void {
    if (this.#openText !== messageId) {
      this.#closeMessages(out);
      this.#openText = messageId;
      this.#textSent.add(messageId);
      out.push({ type: EventType.TEXT_MESSAGE_START, messageId, role: 'assistant' });
    }
    out.push({ type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta });
  }

  #toolCallDelta(
    accumulated: Msg,
    delta: NonNullable<ReasoningChunkEvent['delta']['toolCall']>,
    out: Event[],
  ): void {
    if (this.#callsTurn !== accumulated.id) {
      this.#callsTurn = accumulated.id;
      this.#callsByIndex = new Map();
    }
    let id = this.#callsByIndex.get(delta.index);
    if (id === undefined) {
      // The accumulated reply holds a tool_use block for every call begun so far, so a delta
      // without id or name (some dialects send them once) is named from the newest one.
      const begun = toolUses(accumulated).filter((call) => !this.#callsStarted.has(call.id));
      const block = begun.find((call) => call.id === delta.id) ?? begun[begun.length - 1];
      const callId = delta.id ?? block?.id;
      const name = delta.name ?? block?.name;
      if (callId === undefined || name === undefined) return;
      id = callId;
      this.#callsByIndex.set(delta.index, id);
      this.#closeMessages(out);
      this.#startCall(id, name, accumulated.id, out);
    }
    if (delta.arguments)
      out.push({ type: EventType.TOOL_CALL_ARGS, toolCallId: id, delta: delta.arguments });
  }

  /** The model's reply is complete: end its calls; send what was not streamed whole. */
  #reasoned(reply: Msg): Event[] {
    const out = this.#closeMessages([]);
    this.#sendUnstreamedText(reply, out);
    this.#sendCalls(toolUses(reply), reply.id, out);
    this.#closeCalls(out);
    return out;
  }

  #finish(reply: Msg): Event[] {
    const out = this.#closeMessages([]);
    this.#sendUnstreamedText(reply, out);
    this.#sendCalls(pendingCallsOf(reply).calls, reply.id, out);
    this.#closeCalls(out);
    const { threadId, runId } = this.#ids;
    const usage = usageOf(reply.metadata['usage']);
    out.push({
      type: EventType.RUN_FINISHED,
      threadId,
      runId,
      timestamp: Date.now(),
      outcome: this.#attributed(runOutcomeOf(reply), reply),
      result: {
        messageId: reply.id,
        generateReason: String(reply.metadata['generateReason'] ?? 'stop'),
      },
      ...(usage !== undefined && { usage: [usage] }),
    });
    // Only now: if anything above throws, `fail()` still ends the run with RUN_ERROR.
    this.#finished = true;
    return out;
  }

  /** Each interrupt for a sub-agent's call carries that sub-agent's latest `subagentRunId`. */
  #attributed(outcome: RunFinishedOutcome, reply: Msg): RunFinishedOutcome {
    if (outcome.type !== 'interrupt' || this.#lastSubagent.size === 0) return outcome;
    const calls = pendingCallsOf(reply).calls;
    const interrupts = outcome.interrupts.map((interrupt) => {
      const call = calls.find((candidate) => candidate.id === interrupt.toolCallId);
      const path = call && pendingCallPath(call);
      const subagentRunId = path && this.#lastSubagent.get(path.join('/'));
      return subagentRunId === undefined ? interrupt : { ...interrupt, subagentRunId };
    });
    return { ...outcome, interrupts };
  }

  /** A reply whose text was not streamed (a non-streaming agent, an interrupt reply). */
  #sendUnstreamedText(reply: Msg, out: Event[]): void {
    if (this.#textSent.has(reply.id)) return;
    const text = textOf(reply);
    if (text === '') return;
    this.#textSent.add(reply.id);
    out.push({ type: EventType.TEXT_MESSAGE_START, messageId: reply.id, role: 'assistant' });
    out.push({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: reply.id, delta: text });
    out.push({ type: EventType.TEXT_MESSAGE_END, messageId: reply.id });
  }

  /** START/ARGS/END for each call not yet started in this run (sent whole, not streamed). */
  #sendCalls(calls: readonly ToolUseBlock[], parentMessageId: string, out: Event[]): void {
    for (const call of calls) {
      if (this.#callsStarted.has(call.id)) continue;
      this.#startCall(call.id, call.name, parentMessageId, out);
      out.push({
        type: EventType.TOOL_CALL_ARGS,
        toolCallId: call.id,
        delta: JSON.stringify(call.input),
      });
    }
  }

  #startCall(id: string, name: string, parentMessageId: string, out: Event[]): void {
    this.#callsStarted.add(id);
    this.#callsOpen.add(id);
    out.push({
      type: EventType.TOOL_CALL_START,
      toolCallId: id,
      toolCallName: name,
      parentMessageId,
    });
  }

  #closeCalls(out: Event[]): void {
    for (const id of this.#callsOpen) out.push({ type: EventType.TOOL_CALL_END, toolCallId: id });
    this.#callsOpen.clear();
  }

  /** Ends the open reasoning and text messages; returns `out`. */
  #closeMessages(out: Event[]): Event[] {
    const reasoning = this.#openReasoning;
    if (reasoning !== undefined) {
      this.#openReasoning = undefined;
      out.push({ type: EventType.REASONING_MESSAGE_END, messageId: reasoning });
      out.push({ type: EventType.REASONING_END, messageId: reasoning });
    }
    const text = this.#openText;
    if (text !== undefined) {
      this.#openText = undefined;
      out.push({ type: EventType.TEXT_MESSAGE_END, messageId: text });
    }
    return out;
  }
}

/** TOOL_CALL_RESULT for each tool result the call's input supplies (e.g. denials). */
function suppliedResults(input: readonly Msg[]): Event[] {
  const out: Event[] = [];
  for (const msg of input) {
    if (msg.role === 'tool') for (const result of toolResults(msg)) out.push(resultEvent(result));
  }
  return out;
}

/**
 * How a sub-agent's call ended, for SUBAGENT_FINISHED: `suspended` when it stopped for
 * approval, with the ids of the calls it made itself among those waiting (a sub-agent
 * waiting on a deeper one owns none); else success.
 */
function subagentOutcome(reply: Msg): SubagentFinishedOutcome {
  const { generateReason, pendingToolCalls = [], approvalRequired = [] } = replyMetadata(reply);
  if (generateReason !== 'approval_required') return { type: 'success' };
  const own = new Set(
    pendingToolCalls.filter((call) => pendingCallPath(call) === undefined).map((c) => c.id),
  );
  return { type: 'suspended', interruptIds: approvalRequired.filter((id) => own.has(id)) };
}

function resultEvent(result: ToolResultBlock): Event {
  return {
    type: EventType.TOOL_CALL_RESULT,
    messageId: `${result.id}:result`,
    toolCallId: result.id,
    content: toolOutputText(result),
    role: 'tool',
    ...(result.isError === true && { metadata: { isError: true } }),
  };
}

function usageOf(value: unknown): TokenUsage | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const usage: TokenUsage = {};
  for (const key of ['inputTokens', 'outputTokens', 'totalTokens'] as const) {
    const count = (value as Record<string, unknown>)[key];
    if (typeof count === 'number' && Number.isSafeInteger(count) && count >= 0) usage[key] = count;
  }
  return Object.keys(usage).length > 0 ? usage : undefined;
}

/**
 * A guardrail that blocked or redacted something, as an AG-UI CUSTOM event named
 * `rxagent.guardrail` (value: the guardrail, stage, whether it tripped or replaced, the
 * reason and, for a tool stage, the tool call id), so a client can show the trip.
 */
function guardrailEvent(event: Extract<AgentEvent, { type: 'guardrail' }>): Event {
  const { guardrail, stage, tripped, replaced, reason, toolCallId } = event;
  return {
    type: EventType.CUSTOM,
    name: 'rxagent.guardrail',
    value: {
      guardrail,
      stage,
      tripped,
      replaced,
      ...(reason !== undefined && { reason }),
      ...(toolCallId !== undefined && { toolCallId }),
    },
  };
}
