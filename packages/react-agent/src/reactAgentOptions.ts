import {
  type AgentBaseOptions,
  type Budget,
  type ChatModel,
  type Formatter,
  type Guardrail,
  type Memory,
  type ModelOptions,
  optionNames,
  type SkillSet,
  type Toolkit,
} from '@rxagent/core';
import type { LongTermMemory } from '@rxagent/memory';
import type { FinishGuard } from './judge/finishGuard.js';
import type { ApprovalRule } from './loop/approvalRules.js';
import type { ContextOptions } from './loop/contextOptions.js';
import type { HandoffOption } from './loop/handoffs.js';
import type { LongTermMemoryMode } from './memory/agentLongTermMemory.js';
import type { OffloadOptions } from './offload/offloadOptions.js';

/** Options of `new ReActAgent(...)`. */
export interface ReActAgentOptions extends AgentBaseOptions {
  /** Prepended to every model request; never stored in memory. */
  readonly sysPrompt: string;
  readonly model: ChatModel;
  /** Tools the model may call (default: an empty toolkit). Its state is part of the agent's. */
  readonly toolkit?: Toolkit;
  /** The conversation store (default: a new InMemoryMemory). */
  readonly memory?: Memory;
  /** Reasoning steps per call before the tool-less summary (default 10; `call(input, { maxIters })` overrides it). */
  readonly maxIters?: number;
  /**
   * Consecutive reasoning steps whose tool calls all failed after which the loop stops with a
   * tool-less summary, `generateReason: 'tool_failures'` (default 3; `Infinity` turns it off).
   */
  readonly maxToolFailures?: number;
  /** Run the tool calls of one reply concurrently (default true; also sent as `parallel_tool_calls`). */
  readonly parallelToolCalls?: boolean;
  /** At most this many tools run at once when parallel (default 8). */
  readonly toolConcurrency?: number;
  /** Answer identical repeated tool calls of one call without running them (default true). */
  readonly dedupeToolCalls?: boolean;
  /** Sampling options sent with every request (hooks may change them per request). */
  readonly modelOptions?: ModelOptions;
  /** Maps memory to chat messages each turn (default `formatMessages`). */
  readonly formatter?: Formatter;
  /** Checks each final answer before it is accepted (e.g. a `JudgeGuard`). */
  readonly finishGuard?: FinishGuard;
  /**
   * Agents this one may hand the conversation to: a `transfer_to_<name>` tool per target.
   * A call whose tools ran one ends with `generateReason: 'handoff'` and
   * `metadata.handoff = { to, reason? }`; `handoffPipeline` (core) then calls the target.
   */
  readonly handoffs?: readonly HandoffOption[];
  /**
   * Keeps every request within a token budget: before each reasoning step (and before the
   * max-iterations summary) the oldest messages are replaced in memory by a summary or a
   * drop marker when the request would count more than `maxTokens`. Unset: no counting.
   */
  readonly context?: ContextOptions;
  /**
   * The longest single input message, in characters (default 1,000,000): a longer one fails
   * the call with an `InvalidArgumentError` before anything is stored.
   */
  readonly maxInputChars?: number;
  /**
   * What each call may spend: `{ maxTokens?, maxCostUsd?, pricing? }` (`pricing`: dollars per
   * million tokens by model name; `maxCostUsd` needs a price for the agent's model). Checked
   * before each model request against the call's usage so far, sub-agents included; when
   * spent the call ends at once with `generateReason: 'budget'`. `call(input, { budget })`
   * replaces it for one call. Sub-agents called as tools get what is left.
   */
  readonly budget?: Budget;
  /**
   * Lets the model plan (after AgentScope's PlanNotebook): adds the tools `create_plan`,
   * `update_subtask` and `finish_plan`; the open plan is sent with each reasoning request
   * (a user-role message named `system`, never stored) and kept in state (`stateDict().plan`);
   * a final answer while subtasks are open gets one reminder; replies carry `metadata.plan`.
   */
  readonly plan?: boolean;
  /**
   * Who may run what without asking, decided before a tool's `needsApproval`: the first
   * rule whose `tool` (a name, or a RegExp tested on the name) names the called tool and
   * whose `when(args, { callContext, toolCallId, agent })` holds (default: always; rules
   * with `when` are skipped for invalid arguments) decides. `'allow'` runs the call without
   * asking; `'ask'` stops the call for approval (like `needsApproval: true`); `'deny'` gives
   * it the error result `[denied] <reason>`. Allow and deny record `metadata.decision =
   * { decision: 'rule', rule: { index, tool }, reason? }` on the result. A deny rule wins over
   * a remembered approval and over a human's approval or edit; a remembered approval
   * (`toolDecisions({ remember })`) lets an `'ask'` call run. A `when` that throws or
   * rejects makes the call wait for approval. A bad rule is a TypeError naming its index
   * and field.
   */
  readonly approvalRules?: readonly ApprovalRule[];
  /**
   * Agent Skills (`await loadSkills(dir)`): the catalog (each skill's name and description,
   * byte-stable) is appended to the system prompt, and the tools `load_skill({ name })` and
   * `read_skill_file({ name, path })` let the model read a skill's instructions and files when
   * a task needs them (never a file outside the skill's folder).
   */
  readonly skills?: SkillSet;
  /**
   * Guardrails (`guardrail({...})`, `piiGuardrail()`), asked in order at their stages. An
   * input trip ends the call before any model request, storing nothing of it; an output trip
   * replaces the reply by a refusal and runs none of its tools (both end with
   * `generateReason: 'guardrail'`); a tool-call trip denies the call (`[denied] <reason>`); a
   * tool-result trip makes the result `[blocked] <reason>`. A `replacement` replaces the
   * content and the run goes on. With output guardrails, a streamed reply's chunks reach
   * hooks and `stream()` only after every output guardrail passed the whole reply. A
   * guardrail that throws or takes longer than its `timeoutMs` trips (fail closed).
   */
  readonly guardrails?: readonly Guardrail[];
  /**
   * Keeps long tool results out of the context: a result with more than `overChars`
   * characters of text is stored (in the agent's state, or in `store`, a `MemoryStore`) and
   * the model sees its first `overChars` characters followed by a notice with its size and a
   * handle; the tool `read_result({ handle, offset?, length? })` returns exactly
   * `text.slice(offset, offset + length)` (`length` default and at most `overChars`).
   * `read_result`'s own results are never offloaded; an offloaded result is not truncated
   * (`maxResultChars`) further. Offloaded results are saved, loaded and checkpointed with
   * the agent's state. The result's Msg carries `metadata.offloaded = { handle, chars }`.
   */
  readonly offload?: OffloadOptions;
  /**
   * What the agent knows across calls, threads and users (`@rxagent/memory`), per namespace
   * of the call's `callContext`. See `longTermMemoryMode`.
   */
  readonly longTermMemory?: LongTermMemory;
  /**
   * `'static'`: one store round trip before the call's first request recalls working memory
   * and facts for the input into a memory block stored after it; `'agent'`: the model gets
   * `memory_search`, `memory_save`, `memory_update` and `memory_forget`; `'both'` (default).
   */
  readonly longTermMemoryMode?: LongTermMemoryMode;
}

/** The option names `ReActAgent` adds to AgentBase's (its `static optionKeys`). */
export const REACT_AGENT_OPTION_KEYS = optionNames<Omit<ReActAgentOptions, keyof AgentBaseOptions>>(
  {
    sysPrompt: true,
    model: true,
    toolkit: true,
    memory: true,
    maxIters: true,
    maxToolFailures: true,
    parallelToolCalls: true,
    toolConcurrency: true,
    dedupeToolCalls: true,
    modelOptions: true,
    formatter: true,
    finishGuard: true,
    handoffs: true,
    context: true,
    maxInputChars: true,
    budget: true,
    plan: true,
    approvalRules: true,
    skills: true,
    guardrails: true,
    offload: true,
    longTermMemory: true,
    longTermMemoryMode: true,
  },
);
