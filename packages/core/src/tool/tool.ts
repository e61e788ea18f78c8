import type { Observable } from 'rxjs';
import type { Agent } from '../agent/agent.js';
import type { AgentEvent } from '../agent/agentEvent.js';
import type { Budget } from '../budget/budget.js';
import { InvalidArgumentError } from '../errors.js';
import type { JsonObject } from '../json.js';
import type { ImageBlock, TextBlock, ToolResultBlock } from '../message/contentBlock.js';
import type { ToolDecisions } from '../message/toolDecisions.js';
import type { Usage } from '../model/chatModel.js';
import type { UsageByAgent } from '../model/usageByAgent.js';
import { checkOptions, optionNames } from '../options/checkOptions.js';
import {
  ensureValidator,
  type InferToolArgs,
  type ToolParameters,
  toJsonSchema,
} from './schema.js';

/** What a tool produces: text, or text and image blocks. */
export type ToolOutput = string | ReadonlyArray<TextBlock | ImageBlock>;

/**
 * A value a tool produces: text or content blocks, or any other JSON value (an object, a
 * number, ...), which is sent to the model as its JSON text.
 */
export type ToolValue = ToolOutput | string | number | boolean | null | object;

/**
 * What `execute` may return. An Observable that emits several times streams `actingChunk`
 * events; its last value is the result. The chunks are one text stream, shown as written
 * (an agent used as a tool streams its reply's text deltas this way): a tool reporting
 * progress ends each message with `'\n'`, so each gets a line of its own. A value that is not a string or content blocks is
 * sent as its JSON text; one without JSON text (undefined, a function, a circular object)
 * becomes an error result.
 */
export type ToolReturn = ToolValue | Promise<ToolValue> | Observable<ToolValue>;

/** What `Toolkit.execute` emits: streamed partial output, then exactly one result. */
export type ToolEvent =
  | { readonly type: 'chunk'; readonly output: ToolOutput }
  | { readonly type: 'result'; readonly result: ToolResultBlock };

/**
 * Handed to every tool run. Stop work when `signal` aborts (interrupt, unsubscribe, timeout).
 * The toolkit's context creates the run's signal on first read (a getter, so most runs of
 * tools that never read it create none): read `context.signal` or pass `context` on, rather
 * than spreading it.
 */
export interface ToolExecutionContext {
  readonly signal: AbortSignal;
  readonly toolCallId: string;
  readonly agent?: Agent;
  /** Who is asking: the agent call's `callContext` option (frozen), when it was given. */
  readonly callContext?: JsonObject;
  /**
   * What the calling agent's call may still spend when the tool started, if it has a budget
   * (an agent tool passes it on to its agent, so a sub-agent cannot overspend its caller).
   */
  readonly budget?: Budget;
  /**
   * Counts usage spent inside the run (an agent tool: its agent's reply's usage) in the
   * calling call's `usage`, `usageByAgent` and budget.
   */
  readonly reportUsage?: (report: ToolUsageReport) => void;
  /**
   * Set when this run resumes a call whose earlier run ended with an
   * `ApprovalPendingError` (calls inside it waited for a human): go on from there rather
   * than start over (`agent.asTool()` calls its agent with these decisions).
   */
  readonly resume?: ToolResume;
  /**
   * Present while the calling agent's call is streamed: a tool that runs an agent passes
   * that agent's events here, each with `path` (see `AgentEvent`), so the caller's
   * `stream()` carries them.
   */
  readonly forwardEvent?: (event: AgentEvent) => void;
}

/** Usage another agent spent inside a tool run (see `ToolExecutionContext.reportUsage`). */
export interface ToolUsageReport {
  /** The agent that spent it. */
  readonly agent: string;
  /** Its call's usage (its own sub-agents' included). */
  readonly usage?: Usage;
  /** Its call's usage by agent name, when its own sub-agents spent some. */
  readonly usageByAgent?: UsageByAgent;
  /** What its call cost in dollars, when it knew its pricing. */
  readonly costUsd?: number;
}

/** How a suspended tool call goes on (see `ToolExecutionContext.resume`). */
export interface ToolResume {
  /**
   * The human's decisions about the calls that waited inside this one (only theirs); absent
   * when every one of them is approved (the caller's `call()` with no input).
   */
  readonly decisions?: ToolDecisions;
}

/** What a `needsApproval` predicate gets besides the arguments. */
export interface ToolApprovalContext {
  readonly toolCallId: string;
  readonly agent?: Agent;
  /** Who is asking: the agent call's `callContext` option (frozen), when it was given. */
  readonly callContext?: JsonObject;
}

/**
 * Whether a call of a tool waits for a human decision before it runs: always, never, or
 * as a predicate of the validated arguments decides (a predicate that throws or rejects
 * counts as "needs approval").
 */
export type NeedsApproval<Args = unknown> =
  | boolean
  | ((args: Args, context: ToolApprovalContext) => boolean | Promise<boolean>);

/** A function the model can call. Build one with `tool()`. */
export interface Tool<Args = unknown> {
  readonly name: string;
  readonly description: string;
  /** A zod v3/v4 schema or a JSON Schema for the arguments object. */
  readonly parameters: ToolParameters;
  readonly execute: (args: Args, context: ToolExecutionContext) => ToolReturn;
  /**
   * Whether an identical repeated call (same arguments, same agent call) is answered without
   * running again. Default true; false for tools whose answer changes per call.
   */
  readonly dedupe?: boolean;
  /** Abort a run after this many milliseconds (overrides the toolkit's default). */
  readonly timeoutMs?: number;
  /**
   * Longest result, in characters, the model gets from this tool (overrides the toolkit's
   * `maxResultChars`); a longer one keeps its head and tail (see `truncateResult`).
   */
  readonly maxResultChars?: number;
  /**
   * Calls of this tool wait for a human decision: the agent's call ends before acting with
   * `generateReason: 'approval_required'`; resume with `agent.call(toolDecisions(...))`.
   */
  readonly needsApproval?: NeedsApproval<Args>;
  /**
   * Whether running a call of this tool twice is harmless (a read, or a write keyed by the
   * call). A durable agent whose process stopped while this tool ran runs the call again on
   * `recover()`; a tool that is not idempotent gets an `in_doubt` error result instead.
   * Default false.
   */
  readonly idempotent?: boolean;
}

/** What `tool()` takes. */
export interface ToolDefinition<S extends ToolParameters> {
  readonly name: string;
  readonly description: string;
  readonly parameters: S;
  readonly execute: (args: InferToolArgs<S>, context: ToolExecutionContext) => ToolReturn;
  readonly dedupe?: boolean;
  readonly timeoutMs?: number;
  readonly maxResultChars?: number;
  readonly needsApproval?: NeedsApproval<InferToolArgs<S>>;
  readonly idempotent?: boolean;
}

/** A tool call to run: `input` is parsed arguments, or `rawArguments` the JSON text to parse. */
export interface ToolCallRequest {
  readonly id: string;
  readonly name: string;
  readonly input?: unknown;
  readonly rawArguments?: string;
}

/** The option names of `tool()`. */
const TOOL_KEYS = optionNames<ToolDefinition<ToolParameters>>({
  name: true,
  description: true,
  parameters: true,
  execute: true,
  dedupe: true,
  timeoutMs: true,
  maxResultChars: true,
  needsApproval: true,
  idempotent: true,
});

/** OpenAI's rule for function names, which every provider we target accepts. */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Defines a tool the model can call. `parameters` is a zod v4 schema (`import { z } from
 * 'zod'`), a zod v3 schema (`import { z } from 'zod/v3'`) or a JSON Schema, and must describe
 * an object; `execute` gets the validated arguments (defaults applied) and returns a string,
 * content blocks or any other JSON value (sent as its JSON text), a Promise or an Observable
 * of them. `maxResultChars` caps how much of its result the model gets (see `Toolkit`);
 * `needsApproval` (a boolean or a predicate of the arguments) makes calls wait for a human.
 * Throws `InvalidArgumentError` naming the bad field when the definition is unusable.
 * Returns a frozen Tool.
 *
 * @example
 * ```ts
 * const weather = tool({
 *   name: 'get_weather',
 *   description: 'Current weather for a city.',
 *   parameters: z.object({ city: z.string(), unit: z.enum(['c', 'f']).default('c') }),
 *   execute: async ({ city, unit }, { signal }) => fetchWeather(city, unit, signal),
 * });
 * ```
 */
export function tool<S extends ToolParameters>(def: ToolDefinition<S>): Tool<InferToolArgs<S>> {
  if (typeof def !== 'object' || def === null) {
    throw new InvalidArgumentError(
      'tool(): expected a definition object { name, description, parameters, execute }.',
    );
  }
  const { name, description, parameters, execute, dedupe, timeoutMs, maxResultChars } = def;
  const { needsApproval, idempotent } = def;
  if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
    throw new InvalidArgumentError(
      `tool(): name ${JSON.stringify(name)} is invalid; use 1-64 letters, digits, "_" or "-" (OpenAI's function-name rule).`,
    );
  }
  const where = `tool("${name}")`;
  checkOptions(def, TOOL_KEYS, where);
  if (typeof description !== 'string') {
    throw new InvalidArgumentError(
      `${where}: description must be a string telling the model what the tool does.`,
    );
  }
  if (typeof execute !== 'function') {
    throw new InvalidArgumentError(
      `${where}: execute must be a function (args, context) => result.`,
    );
  }
  if (dedupe !== undefined && typeof dedupe !== 'boolean') {
    throw new InvalidArgumentError(`${where}: dedupe must be a boolean when given.`);
  }
  if (
    timeoutMs !== undefined &&
    !(typeof timeoutMs === 'number' && timeoutMs > 0 && Number.isFinite(timeoutMs))
  ) {
    throw new InvalidArgumentError(
      `${where}: timeoutMs must be a positive number of milliseconds when given.`,
    );
  }
  if (maxResultChars !== undefined && !isCharLimit(maxResultChars)) {
    throw new InvalidArgumentError(
      `${where}: maxResultChars must be a positive whole number of characters (or Infinity) when given.`,
    );
  }
  if (
    needsApproval !== undefined &&
    typeof needsApproval !== 'boolean' &&
    typeof needsApproval !== 'function'
  ) {
    throw new InvalidArgumentError(
      `${where}: needsApproval must be a boolean or a function (args, context) => boolean | Promise<boolean> when given.`,
    );
  }
  if (idempotent !== undefined && typeof idempotent !== 'boolean') {
    throw new InvalidArgumentError(`${where}: idempotent must be a boolean when given.`);
  }
  assertObjectSchema(where, parameters);
  return Object.freeze({
    name,
    description,
    parameters,
    execute,
    ...(dedupe !== undefined && { dedupe }),
    ...(timeoutMs !== undefined && { timeoutMs }),
    ...(maxResultChars !== undefined && { maxResultChars }),
    ...(needsApproval !== undefined && { needsApproval }),
    ...(idempotent !== undefined && { idempotent }),
  });
}

/** Whether `value` is a usable result limit: a positive whole number or `Infinity`. */
export function isCharLimit(value: unknown): value is number {
  return (
    typeof value === 'number' &&
    value > 0 &&
    (Number.isInteger(value) || value === Number.POSITIVE_INFINITY)
  );
}

function assertObjectSchema(where: string, parameters: unknown): void {
  if (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters)) {
    throw new InvalidArgumentError(
      `${where}: parameters must be a zod object schema or a JSON Schema object.`,
    );
  }
  let json: JsonObject;
  try {
    json = toJsonSchema(parameters);
    ensureValidator(parameters);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new InvalidArgumentError(`${where}: parameters: ${message}`, { cause: error });
  }
  if (json['type'] !== 'object') {
    throw new InvalidArgumentError(
      `${where}: parameters must describe an object (z.object({...}) or a JSON Schema with type "object"), because tool arguments are a JSON object.`,
    );
  }
}
