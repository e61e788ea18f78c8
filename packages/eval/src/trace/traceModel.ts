import {
  type AgentEvent,
  type JsonObject,
  type Msg,
  replyMetadata,
  textOf,
  toolUses,
  type Usage,
} from '@rxagent/core';
import { type TraceEntry, type TraceEventData, toTraceEntry } from './traceEntry.js';

/** One model request of a step: when it ran, what it cost, what it said. */
export interface TraceModelRequest {
  readonly kind: 'model' | 'summary';
  readonly start: number;
  end?: number;
  firstChunkAt?: number;
  chunks: number;
  readonly messages: number;
  readonly tools: readonly string[];
  usage?: Usage;
  finishReason?: string;
  text: string;
  toolCalls: string[];
}

/** One tool call: its arguments, its result, how long it ran and how it ended. */
export interface TraceToolCall {
  readonly id: string;
  readonly name: string;
  readonly input: JsonObject;
  readonly start: number;
  end?: number;
  chunks: number;
  output?: string;
  isError?: boolean;
  resultKind?: string;
  deniedReason?: string;
}

/** Something that happened at one moment: an interrupt, an approval, a delivery, an error. */
export interface TraceMarker {
  readonly kind:
    | 'interrupt'
    | 'approval'
    | 'stop'
    | 'denied'
    | 'error'
    | 'delivery'
    | 'compress'
    | 'guardrail'
    | 'memory';
  readonly at: number;
  readonly text: string;
}

/** A reasoning step of a call: its model request and the tool calls it asked for. */
export interface TraceStep {
  readonly number: number;
  readonly model: TraceModelRequest;
  readonly tools: TraceToolCall[];
}

/** One call of an agent, from `preCall` to its reply. */
export interface TraceCall {
  readonly number: number;
  readonly start: number;
  end?: number;
  readonly input: string;
  reply?: string;
  generateReason?: string;
  usage?: Usage;
  readonly steps: TraceStep[];
  readonly markers: TraceMarker[];
}

/** An agent's lane: its calls in order. */
export interface TraceLane {
  readonly name: string;
  readonly calls: TraceCall[];
}

/** A run as the trace page shows it. */
export interface TraceModel {
  readonly entries: readonly TraceEntry[];
  /** Whether `at` is in milliseconds (false: plain events, numbered in order). */
  readonly timed: boolean;
  readonly start: number;
  readonly end: number;
  readonly lanes: readonly TraceLane[];
}

/** Timed entries as they are; plain `stream()` events numbered in order (untimed). */
export function toEntries(events: readonly (AgentEvent | TraceEntry)[]): {
  entries: TraceEntry[];
  timed: boolean;
} {
  let timed = true;
  let last: string | undefined;
  const entries = events.map((event, index) => {
    if ('event' in event && 'at' in event) return event;
    timed = false;
    // A stream's final reply event names no agent: it is the reply of the call's agent.
    const entry = toTraceEntry(event as AgentEvent, index, 'agent' in event ? undefined : last);
    last = entry.agent;
    return entry;
  });
  return { entries, timed };
}

/** Builds the lanes, calls, steps, tool calls and markers of a run from its entries. */
export function buildTraceModel(events: readonly (AgentEvent | TraceEntry)[]): TraceModel {
  const { entries, timed } = toEntries(events);
  const lanes = new Map<string, LaneBuilder>();
  const spoken = new Map<string, string>();
  for (const entry of entries) {
    let lane = lanes.get(entry.agent);
    if (lane === undefined) {
      lane = new LaneBuilder(entry.agent, spoken);
      lanes.set(entry.agent, lane);
    }
    lane.add(entry.at, entry.event);
  }
  const times = entries.map((entry) => entry.at);
  return {
    entries,
    timed,
    start: times.length > 0 ? Math.min(...times) : 0,
    end: times.length > 0 ? Math.max(...times) : 0,
    lanes: [...lanes.values()].map((lane) => lane.lane),
  };
}

class LaneBuilder {
  readonly lane: TraceLane;
  readonly #spoken: Map<string, string>;
  readonly #heard = new Set<string>();
  #call: TraceCall | undefined;
  #model: TraceModelRequest | undefined;
  readonly #tools = new Map<string, TraceToolCall>();

  constructor(name: string, spoken: Map<string, string>) {
    this.lane = { name, calls: [] };
    this.#spoken = spoken;
  }

  add(at: number, event: TraceEventData): void {
    switch (event.type) {
      case 'preCall':
        this.#open(at, event.input.map((msg) => textOf(msg)).join('\n'));
        return;
      case 'preReasoning':
      case 'preSummary':
        this.#hear(at, event.messages);
        this.#startModel(at, event);
        return;
      case 'reasoningChunk':
        if (this.#model) {
          this.#model.chunks++;
          this.#model.firstChunkAt ??= at;
        }
        return;
      case 'postReasoning':
      case 'postSummary':
        this.#endModel(at, event);
        return;
      case 'preActing':
        this.#startTool(at, event.toolCall, event.deniedReason);
        return;
      case 'actingChunk': {
        const tool = this.#tools.get(event.toolCall.id);
        if (tool) tool.chunks++;
        return;
      }
      case 'postActing':
        this.#endTool(at, event);
        return;
      case 'preCompress':
        return;
      case 'postCompress':
        this.#mark({
          kind: 'compress',
          at,
          text: `context compressed: ${event.removed} messages, ${event.tokensBefore} → ${event.tokensAfter} tokens`,
        });
        return;
      case 'guardrail':
        if (event.tripped || event.replaced)
          this.#mark({
            kind: 'guardrail',
            at,
            text: `guardrail ${event.guardrail} ${event.tripped ? 'tripped' : 'replaced'} (${event.stage})${event.reason ? `: ${event.reason}` : ''}`,
          });
        return;
      case 'memoryRecall':
        this.#mark({
          kind: 'memory',
          at,
          text: `memory recall (${event.source}): ${event.items.map((i) => `${i.key} ${i.score.toFixed(2)}`).join(', ') || 'nothing'} · ${event.ms.toFixed(1)} ms`,
        });
        return;
      case 'memoryWrite':
        this.#mark({
          kind: 'memory',
          at,
          text: `memory write (${event.source}): ${event.keys.join(', ') || 'nothing'}${event.usage ? ` · ${event.usage.totalTokens} tokens` : ''}${event.error ? ` · failed: ${event.error}` : ''}`,
        });
        return;
      case 'error':
        this.#mark({ kind: 'error', at, text: `${event.error.name}: ${event.error.message}` });
        return;
      case 'postCall':
        this.#close(at, event.reply);
        return;
      case 'reply':
        // A stream ends with its call's postCall and then the same reply: close only an open call.
        if (this.#call !== undefined) this.#close(at, event.msg);
        return;
    }
  }

  #ensureCall(at: number): TraceCall {
    return this.#call ?? this.#open(at, '');
  }

  #open(at: number, input: string): TraceCall {
    const call: TraceCall = {
      number: this.lane.calls.length + 1,
      start: at,
      input,
      steps: [],
      markers: [],
    };
    this.lane.calls.push(call);
    this.#call = call;
    this.#model = undefined;
    return call;
  }

  #mark(marker: TraceMarker): void {
    this.#ensureCall(marker.at).markers.push(marker);
  }

  #hear(at: number, messages: readonly { id: string; name: string }[]): void {
    for (const message of messages) {
      const from = this.#spoken.get(message.id);
      if (from === undefined || from === this.lane.name || this.#heard.has(message.id)) continue;
      this.#heard.add(message.id);
      this.#mark({ kind: 'delivery', at, text: `heard ${from}'s reply (hub delivery)` });
    }
  }

  #startModel(
    at: number,
    event: Extract<TraceEventData, { type: 'preReasoning' | 'preSummary' }>,
  ): void {
    const call = this.#ensureCall(at);
    const model: TraceModelRequest = {
      kind: event.type === 'preSummary' ? 'summary' : 'model',
      start: at,
      chunks: 0,
      messages: event.messages.length,
      tools: event.type === 'preReasoning' ? event.tools : [],
      text: '',
      toolCalls: [],
    };
    call.steps.push({ number: call.steps.length + 1, model, tools: [] });
    this.#model = model;
  }

  #endModel(
    at: number,
    event: Extract<TraceEventData, { type: 'postReasoning' | 'postSummary' }>,
  ): void {
    const model = this.#model;
    if (model === undefined) return;
    model.end = at;
    model.text = textOf(event.reply);
    model.toolCalls = toolUses(event.reply).map((use) => use.name);
    if (event.usage) model.usage = event.usage;
    if (event.finishReason !== undefined) model.finishReason = event.finishReason;
    this.#model = undefined;
  }

  #startTool(
    at: number,
    toolCall: { id: string; name: string; input: JsonObject },
    deniedReason?: string,
  ): void {
    const call = this.#ensureCall(at);
    const tool: TraceToolCall = {
      id: toolCall.id,
      name: toolCall.name,
      input: toolCall.input,
      start: at,
      chunks: 0,
      ...(deniedReason !== undefined && { deniedReason }),
    };
    this.#tools.set(tool.id, tool);
    const step = call.steps.at(-1);
    if (step) step.tools.push(tool);
    else call.steps.push({ number: 1, model: emptyModel(at), tools: [tool] });
    if (deniedReason !== undefined) {
      call.markers.push({ kind: 'denied', at, text: `${tool.name} denied: ${deniedReason}` });
    }
  }

  #endTool(at: number, event: Extract<TraceEventData, { type: 'postActing' }>): void {
    let tool = this.#tools.get(event.toolCall.id);
    if (tool === undefined) {
      this.#startTool(at, event.toolCall);
      tool = this.#tools.get(event.toolCall.id)!;
    }
    tool.end = at;
    const { output, isError } = event.result as { output?: unknown; isError?: boolean };
    tool.output = typeof output === 'string' ? output : JSON.stringify(output);
    tool.isError = isError === true;
    if (event.resultKind !== undefined) tool.resultKind = event.resultKind;
  }

  #close(at: number, reply: Msg): void {
    const call = this.#ensureCall(at);
    call.end = at;
    call.reply = textOf(reply);
    const metadata = replyMetadata(reply);
    if (metadata.usage) call.usage = metadata.usage;
    const reason = metadata.generateReason;
    if (reason !== undefined) call.generateReason = reason;
    if (reason === 'interrupted') call.markers.push({ kind: 'interrupt', at, text: 'interrupted' });
    if (reason === 'approval_required') {
      const waiting = new Set(metadata.approvalRequired ?? []);
      const names = (metadata.pendingToolCalls ?? [])
        .filter((use) => waiting.has(use.id))
        .map((use) => `${use.name}(${JSON.stringify(use.input)})`);
      call.markers.push({ kind: 'approval', at, text: `approval required: ${names.join(', ')}` });
    }
    if (reason === 'tool_calls_stopped' || reason === 'acting_stopped') {
      call.markers.push({ kind: 'stop', at, text: `stopped by a hook (${reason})` });
    }
    this.#spoken.set(reply.id, this.lane.name);
    this.#call = undefined;
    this.#model = undefined;
  }
}

function emptyModel(at: number): TraceModelRequest {
  return {
    kind: 'model',
    start: at,
    end: at,
    chunks: 0,
    messages: 0,
    tools: [],
    text: '',
    toolCalls: [],
  };
}
