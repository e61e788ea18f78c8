import type { AgentEvent, JsonObject, JsonValue, Msg, ToolUseBlock, Usage } from '@rxagent/core';

/** A message as a trace keeps it where only who said what matters (a request's input). */
export interface TraceMessageRef {
  readonly id: string;
  readonly name: string;
  readonly role: Msg['role'];
}

/**
 * The JSON form of one `stream()` event in a trace: the event without its `agent` (named
 * in `TraceEntry.agent`), with a model request's messages reduced to who said them and a
 * streamed chunk reduced to its delta, so a trace stays linear in the size of the run.
 */
export type TraceEventData =
  | { readonly type: 'preCall'; readonly input: readonly Msg[] }
  | { readonly type: 'postCall'; readonly reply: Msg }
  | {
      readonly type: 'preReasoning';
      readonly messages: readonly TraceMessageRef[];
      readonly tools: readonly string[];
      readonly toolChoice?: JsonValue;
    }
  | { readonly type: 'reasoningChunk'; readonly delta: JsonObject }
  | {
      readonly type: 'postReasoning' | 'postSummary';
      readonly reply: Msg;
      readonly usage?: Usage;
      readonly finishReason?: string;
    }
  | { readonly type: 'preActing'; readonly toolCall: ToolUseBlock; readonly deniedReason?: string }
  | { readonly type: 'actingChunk'; readonly toolCall: ToolUseBlock; readonly chunk: JsonValue }
  | {
      readonly type: 'postActing';
      readonly toolCall: ToolUseBlock;
      readonly result: JsonObject;
      readonly resultKind?: string;
    }
  | { readonly type: 'preSummary'; readonly messages: readonly TraceMessageRef[] }
  | { readonly type: 'preCompress'; readonly removed: number; readonly tokens: number }
  | {
      readonly type: 'postCompress';
      readonly removed: number;
      readonly tokensBefore: number;
      readonly tokensAfter: number;
    }
  | {
      readonly type: 'guardrail';
      readonly guardrail: string;
      readonly stage: string;
      readonly tripped: boolean;
      readonly replaced: boolean;
      readonly reason?: string;
    }
  | {
      readonly type: 'memoryRecall';
      readonly namespace: readonly string[];
      readonly items: readonly { readonly key: string; readonly score: number }[];
      readonly ms: number;
      readonly source: string;
    }
  | {
      readonly type: 'memoryWrite';
      readonly namespace: readonly string[];
      readonly keys: readonly string[];
      readonly ms: number;
      readonly source: string;
      readonly usage?: Usage;
      readonly error?: string;
    }
  | {
      readonly type: 'error';
      readonly error: { readonly name: string; readonly message: string; readonly code?: string };
    }
  | { readonly type: 'reply'; readonly msg: Msg };

/** One event of a run, timed: what a trace page and an eval report keep. */
export interface TraceEntry {
  /** Milliseconds since the start of the recording. */
  readonly at: number;
  /** The agent whose call fired the event (its lane on the trace page). */
  readonly agent: string;
  readonly event: TraceEventData;
}

const refOf = (msg: Msg): TraceMessageRef => ({ id: msg.id, name: msg.name, role: msg.role });

/** A JSON copy (drops functions and `undefined`, keeps what a page can show). */
function json<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** The `TraceEntry` of `event`, fired by `agent` (default: the event's own agent) at `at` ms. */
export function toTraceEntry(event: AgentEvent, at: number, agent?: string): TraceEntry {
  const name = agent ?? ('agent' in event ? event.agent.name : 'agent');
  return { at, agent: name, event: toTraceData(event, COPIED) };
}

/**
 * `toTraceEntry` without the JSON copies: the entry shares the event's messages, tool calls,
 * results and usage (an eval run's trace, whose run is over when it is read), its requests'
 * message refs come from `refs` (shared with the run's earlier requests) and its tool names
 * are a frozen array shared by the requests offering the same tools. Internal.
 */
export function sharedTraceEntry(
  event: AgentEvent,
  at: number,
  agent?: string,
  refs: MessageRefs = new MessageRefs(),
): TraceEntry {
  const name = agent ?? ('agent' in event ? event.agent.name : 'agent');
  return { at, agent: name, event: toTraceData(event, refs) };
}

/** How an entry takes what its event holds: as copies of its own, or shared with the event. */
interface EntryParts {
  /** A value of the event, as the entry keeps it. */
  json<T>(value: T): T;
  /** The refs of a request's messages. */
  of(messages: readonly Msg[]): TraceMessageRef[];
  /** The names of a request's tools. */
  tools(tools: readonly OfferedTool[]): readonly string[];
}

type OfferedTool = { readonly function: { readonly name: string } };

/** The parts of a `toTraceEntry` entry: JSON copies and arrays of its own. */
const COPIED: EntryParts = {
  json,
  of: (messages) => messages.map(refOf),
  tools: (tools) => tools.map((tool) => tool.function.name),
};

/**
 * The message refs of a run's requests, made once per message: a request's messages are
 * mostly the previous request's with a few more at the end, so the refs of that common
 * start are the previous request's refs (the same objects), and a run of n requests keeps
 * O(n) refs, not O(n²). A ref is reused when it names the same message (id, name, role):
 * the previous request's array itself is not kept, as the agent may reuse it. With the
 * event's own values and shared tool names, the parts of a `sharedTraceEntry`. Internal.
 */
export class MessageRefs implements EntryParts {
  #refs: readonly TraceMessageRef[] = [];

  json<T>(value: T): T {
    return value;
  }

  /** The refs of `messages`, sharing those of the previous call's where they name the same messages. */
  of(messages: readonly Msg[]): TraceMessageRef[] {
    const lastRefs = this.#refs;
    const refs = new Array<TraceMessageRef>(messages.length);
    for (let i = 0; i < messages.length; i++) {
      const msg = messages[i]!;
      const last = lastRefs[i];
      refs[i] =
        last !== undefined && last.id === msg.id && last.name === msg.name && last.role === msg.role
          ? last
          : refOf(msg);
    }
    this.#refs = refs;
    return refs;
  }

  tools(tools: readonly OfferedTool[]): readonly string[] {
    return toolNames(tools);
  }
}

/** The last tool names made, shared while the tools offered stay the same (frozen). */
let lastToolNames: readonly string[] = Object.freeze([]);

/**
 * The names of `tools`, as the same frozen array as last time when they are the same names
 * in the same order (every request of an agent, and of agents sharing a toolkit, usually).
 */
function toolNames(tools: readonly OfferedTool[]): readonly string[] {
  const last = lastToolNames;
  if (tools.length === last.length) {
    let same = true;
    for (let i = 0; i < tools.length; i++) {
      if (tools[i]!.function.name !== last[i]) {
        same = false;
        break;
      }
    }
    if (same) return last;
  }
  const names = Object.freeze(tools.map((tool) => tool.function.name));
  lastToolNames = names;
  return names;
}

/**
 * The data of `event`'s entry, its parts taken through `parts`; each object built with its
 * fields in one literal per shape (no spread of an optional part: an eval run records one
 * per event).
 */
function toTraceData(event: AgentEvent, parts: EntryParts): TraceEventData {
  switch (event.type) {
    case 'preCall':
      return { type: 'preCall', input: parts.json(event.input).slice() };
    case 'postCall':
      return { type: 'postCall', reply: parts.json(event.reply) };
    case 'preReasoning': {
      const messages = parts.of(event.messages);
      const tools = parts.tools(event.tools);
      return event.toolChoice === undefined
        ? { type: 'preReasoning', messages, tools }
        : {
            type: 'preReasoning',
            messages,
            tools,
            toolChoice: parts.json(event.toolChoice) as JsonValue,
          };
    }
    case 'reasoningChunk':
      // The most frequent event: copied by hand, not through JSON.
      return { type: 'reasoningChunk', delta: deltaOf(event.delta) };
    case 'postReasoning':
    case 'postSummary': {
      const { type, finishReason } = event;
      const reply = parts.json(event.reply);
      if (event.usage === undefined) {
        return finishReason === undefined ? { type, reply } : { type, reply, finishReason };
      }
      const usage = parts.json(event.usage);
      return finishReason === undefined
        ? { type, reply, usage }
        : { type, reply, usage, finishReason };
    }
    case 'preActing': {
      const toolCall = parts.json(event.toolCall);
      return event.deniedReason === undefined
        ? { type: 'preActing', toolCall }
        : { type: 'preActing', toolCall, deniedReason: event.deniedReason };
    }
    case 'actingChunk':
      return {
        type: 'actingChunk',
        toolCall: parts.json(event.toolCall),
        chunk: parts.json(event.chunk) as JsonValue,
      };
    case 'postActing': {
      const toolCall = parts.json(event.toolCall);
      const result = parts.json(event.result) as unknown as JsonObject;
      return event.resultKind === undefined
        ? { type: 'postActing', toolCall, result }
        : { type: 'postActing', toolCall, result, resultKind: event.resultKind };
    }
    case 'preSummary':
      return { type: 'preSummary', messages: parts.of(event.messages) };
    case 'preCompress':
      return { type: 'preCompress', removed: event.messages.length, tokens: event.tokens };
    case 'postCompress':
      return {
        type: 'postCompress',
        removed: event.removed,
        tokensBefore: event.tokensBefore,
        tokensAfter: event.tokensAfter,
      };
    case 'guardrail': {
      const { guardrail, stage, tripped, replaced, reason } = event;
      return reason === undefined
        ? { type: 'guardrail', guardrail, stage, tripped, replaced }
        : { type: 'guardrail', guardrail, stage, tripped, replaced, reason };
    }
    case 'memoryRecall':
      return {
        type: 'memoryRecall',
        namespace: [...event.namespace],
        items: event.items.map(({ key, score }) => ({ key, score })),
        ms: event.ms,
        source: event.source,
      };
    case 'memoryWrite':
      return memoryWriteData(event, parts);
    case 'error':
      return { type: 'error', error: errorData(event.error) };
    case 'reply':
      return { type: 'reply', msg: parts.json(event.msg) };
  }
}

/** A memoryWrite event's entry: its usage and error only when it has them. */
function memoryWriteData(
  event: Extract<AgentEvent, { type: 'memoryWrite' }>,
  parts: EntryParts,
): TraceEventData {
  const { ms, source } = event;
  const base = {
    type: 'memoryWrite' as const,
    namespace: [...event.namespace],
    keys: [...event.keys],
    ms,
    source,
  };
  return {
    ...base,
    ...(event.usage !== undefined && { usage: parts.json(event.usage) }),
    ...(event.error !== undefined && { error: event.error }),
  };
}

function deltaOf(delta: Extract<AgentEvent, { type: 'reasoningChunk' }>['delta']): JsonObject {
  const copy: JsonObject = {};
  if (delta.text !== undefined) copy['text'] = delta.text;
  if (delta.thinking !== undefined) copy['thinking'] = delta.thinking;
  const call = delta.toolCall;
  if (call !== undefined) {
    const toolCall: JsonObject = { index: call.index };
    if (call.id !== undefined) toolCall['id'] = call.id;
    if (call.name !== undefined) toolCall['name'] = call.name;
    if (call.arguments !== undefined) toolCall['arguments'] = call.arguments;
    copy['toolCall'] = toolCall;
  }
  return copy;
}

function errorData(error: unknown): { name: string; message: string; code?: string } {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const code = (error as { code?: unknown }).code;
  return {
    name: error.name,
    message: error.message,
    ...(typeof code === 'string' && { code }),
  };
}
