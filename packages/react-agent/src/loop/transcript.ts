import {
  createMsg,
  freezeMsg,
  type JsonObject,
  type Memory,
  type Msg,
  type ToolResultBlock,
  type ToolResultKind,
  type ToolUseBlock,
  toolResults,
  toolUses,
  withMetadata,
} from '@rxagent/core';
import { pendingToolCalls, type SuspendedToolCall } from './pendingToolCalls.js';
import { errorResult, interruptedResult, toolResultMsg } from './toolResultMsg.js';

/**
 * Every memory write of one ReActAgent call goes through its transcript, so "memory is a
 * valid conversation at every exit" has one owner. It keeps the tool calls stored without
 * a result (in call order), stores tool results in call order whatever order they finish
 * in, and `seal()` gives every call still open its finished result or an `[interrupted]`
 * one.
 */
export class Transcript {
  /** Tool calls stored without a result, in call order. */
  #open: ToolUseBlock[];
  /** Raw argument text of open calls whose arguments were not a JSON object, by id. */
  #invalidArguments: JsonObject;
  /** Open calls waiting on a sub-agent's approval stop (from memory), by id. */
  #suspended: Readonly<Record<string, SuspendedToolCall>>;
  /**
   * Ids of the calls this call suspended: they stay open, later results are stored past them.
   * Made by the first `suspend` (most calls suspend nothing).
   */
  #suspending: Set<string> | undefined;
  /**
   * Results that finished before an earlier call of their batch, by call id. Made by the
   * first `settle`; dropped when no result waits, so a call parked on its model request
   * holds none.
   */
  #early: Map<string, Msg> | undefined;
  /** Ids of every tool call in memory, made on first use and kept up to date by `add`. */
  #toolCallIds: Set<string> | undefined;
  /** How many messages memory held when the transcript was made (before the call's input). */
  readonly startLength: number;
  /** Ids of the messages the call got as its input and stored (tool results aside). */
  #input: readonly string[] = NO_IDS;
  /** Whether the call stored input of its own (a resumed one got none: only steered messages). */
  #hasOwnInput = false;

  constructor(
    readonly memory: Memory,
    readonly agentName: string,
  ) {
    const messages = memory.messages();
    this.startLength = messages.length;
    const pending = pendingToolCalls(messages);
    this.#open = [...pending.calls];
    this.#invalidArguments = pending.invalidArguments;
    this.#suspended = pending.suspended;
  }

  /** The conversation so far. */
  messages(): readonly Msg[] {
    return this.memory.messages();
  }

  /** Tool calls stored without a result, in call order. */
  get openCalls(): readonly ToolUseBlock[] {
    return this.#open;
  }

  /**
   * The ids of every tool call stored in the conversation, so a new reply never reuses one
   * (a server numbering its calls from `call_0` each turn, a restored session). Built from
   * memory on first use (only replies with tool calls need it), then kept by `add`.
   */
  toolCallIds(): ReadonlySet<string> {
    if (this.#toolCallIds === undefined) {
      const ids = new Set<string>();
      for (const msg of this.memory.messages()) {
        for (const call of toolUses(msg)) ids.add(call.id);
      }
      this.#toolCallIds = ids;
    }
    return this.#toolCallIds;
  }

  /** Raw argument text of the open calls whose arguments were not a JSON object, by id. */
  get invalidArguments(): JsonObject {
    return this.#invalidArguments;
  }

  /**
   * The open calls that wait on a sub-agent's approval stop, by id: what an earlier call
   * recorded with `recordSuspended`.
   */
  get suspendedCalls(): Readonly<Record<string, SuspendedToolCall>> {
    return this.#suspended;
  }

  /**
   * Leaves `call` open without a result: calls inside it wait for a human (its tool ended
   * with `ApprovalPendingError`). The results of the calls after it are stored past it.
   */
  suspend(call: ToolUseBlock): void {
    if (!this.#open.some((open) => open.id === call.id)) return;
    this.#suspending ??= new Set();
    this.#suspending.add(call.id);
    this.#flush();
  }

  /**
   * Records, on the assistant Msg that made them, which open calls wait on which sub-agent
   * (`metadata.suspendedToolCalls`, replacing what an earlier stop recorded), so a later
   * call, or a fresh agent loading this state, resumes them.
   */
  recordSuspended(records: Readonly<Record<string, SuspendedToolCall>>): void {
    const ids = Object.keys(records);
    if (ids.length === 0) return;
    const messages = this.memory.messages();
    const index = messages.findLastIndex(
      (msg) => msg.role === 'assistant' && toolUses(msg).some((call) => call.id === ids[0]),
    );
    const owner = messages[index];
    if (owner === undefined) return;
    const updated = withMetadata(owner, {
      suspendedToolCalls: records as unknown as JsonObject,
    });
    this.memory.replace(messages.map((msg, at) => (at === index ? updated : msg)));
    this.#suspended = records;
  }

  /**
   * Stores messages as they are: input, replies, feedback. A reply with tool calls opens
   * them; a supplied tool-result Msg closes the calls it answers.
   */
  add(msgs: Msg | readonly Msg[]): void {
    const list: readonly Msg[] = Array.isArray(msgs) ? msgs : [msgs as Msg];
    if (list.length === 0) return;
    this.memory.add(list);
    for (const msg of list) {
      if (msg.role === 'tool') this.#close(toolResults(msg).map((result) => result.id));
      else this.#openCalls(msg);
    }
  }

  /** Stores the call's input messages (other than tool results): the task being worked on. */
  addInput(msgs: readonly Msg[]): void {
    this.add(msgs);
    // concat: an array of exactly their length (a pushed-to one keeps room for 16 more).
    if (msgs.length > 0) {
      this.#input = this.#input.concat(msgs.map((msg) => msg.id));
      this.#hasOwnInput = true;
    }
  }

  /** Stores what `steer()` gave the call, as the user's words that are part of its task. */
  addSteered(msg: Msg): void {
    this.addUserWords(msg);
    this.#input = this.#input.concat(msg.id);
  }

  /**
   * Ids of the messages context compression never replaces: the call's stored input and
   * every message steered into it, or, for a call that got no input (a resume), the latest
   * message from the user (framework feedback, named `system`, aside) and what was steered
   * since — the request the call still works on, which a finish guard judges against.
   */
  taskIds(): readonly string[] {
    if (this.#input.length > 0 && this.#hasOwnInput) return this.#input;
    const messages = this.memory.messages();
    for (let index = messages.length - 1; index >= 0; index--) {
      const msg = messages[index]!;
      if (msg.role === 'user' && msg.name !== 'system' && !this.#input.includes(msg.id))
        return [msg.id, ...this.#input];
    }
    return this.#input;
  }

  /** The messages of `taskIds()`, in memory order. */
  task(): Msg[] {
    const ids = new Set(this.taskIds());
    return this.memory.messages().filter((msg) => ids.has(msg.id));
  }

  /**
   * Stores `msg` as something the user said (what `interrupt(message)` got): itself when
   * user-role, else a user-role copy keeping its text and images.
   */
  addUserWords(msg: Msg): void {
    const content = msg.content.filter((block) => block.type === 'text' || block.type === 'image');
    this.add(msg.role === 'user' ? msg : freezeMsg({ ...msg, role: 'user', content }));
  }

  /** Stores the text of a reply cut mid-stream as an assistant Msg marked `partial`. */
  addPartial(id: string, text: string): void {
    if (text === '') return;
    this.memory.add(
      createMsg({
        id,
        name: this.agentName,
        role: 'assistant',
        content: text,
        metadata: { partial: true },
      }),
    );
  }

  /**
   * Records the result of an open call. It is stored at once when every call before it has
   * its result, else when they have; returns the result's Msg. `metadata` (what postActing
   * hooks recorded, `truncated`) goes on that Msg, beside `resultKind`.
   */
  settle(
    call: ToolUseBlock,
    result: ToolResultBlock,
    kind?: ToolResultKind,
    metadata?: JsonObject,
  ): Msg {
    const msg = this.#resultMsg(result, kind, metadata);
    if (!this.#open.some((open) => open.id === call.id)) return msg;
    this.#early ??= new Map();
    this.#early.set(call.id, msg);
    this.#flush();
    return msg;
  }

  /** Gives each of `calls` (open, not to be run) an error result reading `text`, in order. */
  close(
    calls: readonly ToolUseBlock[],
    text: (call: ToolUseBlock) => string,
    kind: ToolResultKind,
  ): void {
    for (const call of calls) this.settle(call, errorResult(call, text(call)), kind);
  }

  /**
   * Closes every open call, in call order: with its result when it finished, else with an
   * `[interrupted]` error result. Idempotent; what every exit of a call ends with.
   */
  seal(): void {
    if (this.#open.length === 0) return;
    this.#early ??= new Map();
    const early = this.#early;
    for (const call of this.#open) {
      if (!early.has(call.id))
        early.set(call.id, this.#resultMsg(interruptedResult(call), 'interrupted'));
    }
    this.#flush();
  }

  /** Replaces the whole conversation (a compaction); open calls are found again. */
  replace(messages: readonly Msg[]): void {
    this.memory.replace(messages);
    this.#reopen();
  }

  /** Deletes the messages with these ids; open calls are found again. */
  delete(ids: Iterable<string>): void {
    this.memory.delete(ids);
    this.#reopen();
  }

  #resultMsg(
    result: ToolResultBlock,
    kind: ToolResultKind | undefined,
    metadata?: JsonObject,
  ): Msg {
    if (kind === undefined) return toolResultMsg(this.agentName, result, metadata);
    return toolResultMsg(this.agentName, result, { ...metadata, resultKind: kind });
  }

  /** Stores the results waiting at the head of the open calls (suspended calls stay open). */
  #flush(): void {
    let stored = 0;
    let kept: ToolUseBlock[] | undefined;
    const early = this.#early;
    while (stored < this.#open.length) {
      const call = this.#open[stored]!;
      const msg = early?.get(call.id);
      if (msg === undefined) {
        if (!this.#suspending?.has(call.id)) break;
        kept ??= [];
        kept.push(call);
        stored++;
        continue;
      }
      this.memory.add(msg);
      early!.delete(call.id);
      stored++;
    }
    if (early?.size === 0) this.#early = undefined;
    if (stored === 0) return;
    const rest = stored === this.#open.length ? [] : this.#open.slice(stored);
    this.#open = kept === undefined ? rest : [...kept, ...rest];
  }

  #openCalls(msg: Msg): void {
    const calls = toolUses(msg);
    if (calls.length === 0) return;
    if (this.#toolCallIds !== undefined) for (const call of calls) this.#toolCallIds.add(call.id);
    // A new tool-calling reply: earlier calls are closed for good (memory validity is the
    // caller's duty before it stores a new reply).
    this.#open = [...calls];
    this.#early = undefined;
    this.#suspending = undefined;
    this.#suspended = NO_SUSPENDED;
    const invalid = msg.metadata['invalidToolArguments'];
    this.#invalidArguments = (invalid as JsonObject | undefined) ?? NO_INVALID_ARGUMENTS;
  }

  #close(ids: readonly string[]): void {
    if (ids.length === 0) return;
    const closed = new Set(ids);
    this.#open = this.#open.filter((call) => !closed.has(call.id));
  }

  #reopen(): void {
    this.#toolCallIds = undefined;
    const pending = pendingToolCalls(this.memory.messages());
    this.#open = [...pending.calls];
    this.#invalidArguments = pending.invalidArguments;
    this.#suspended = pending.suspended;
    this.#early = undefined;
  }
}

// Shared and frozen: most replies have no invalid arguments and suspend nothing.
const NO_IDS: readonly string[] = Object.freeze([]);
const NO_SUSPENDED: Readonly<Record<string, SuspendedToolCall>> = Object.freeze({});
const NO_INVALID_ARGUMENTS: JsonObject = Object.freeze({});
