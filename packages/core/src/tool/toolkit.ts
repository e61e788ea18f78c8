import { Observable, type Observer, type TeardownLogic } from 'rxjs';
import { InvalidArgumentError, StateError, ToolError } from '../errors.js';
import { isJsonObject, type JsonObject } from '../json.js';
import type { ToolSchema } from '../model/chatModel.js';
import { checkOptions } from '../options/checkOptions.js';
import type { StateModule } from '../state/stateModule.js';
import { startToolRun, type ToolRunSink } from './runTool.js';
import { toJsonSchema } from './schema.js';
import {
  isCharLimit,
  type Tool,
  type ToolCallRequest,
  type ToolEvent,
  type ToolExecutionContext,
} from './tool.js';
import { resolveArguments } from './toolArguments.js';
import { DEFAULT_MAX_RESULT_CHARS } from './truncateResult.js';

/** Options of a `Toolkit`. */
export interface ToolkitOptions {
  /** Abort a tool run after this many milliseconds unless the tool sets its own `timeoutMs`. */
  readonly timeoutMs?: number;
  /**
   * Longest tool result, in characters, the model gets (default 50,000; `Infinity` for no
   * limit) unless the tool sets its own `maxResultChars`. See `resultLimit`.
   */
  readonly maxResultChars?: number;
}

// biome-ignore lint/suspicious/noExplicitAny: a registry holds tools of every argument type.
type AnyTool = Tool<any>;

/** Converted schemas per tool: tools are frozen, so one conversion serves every toolkit and turn. */
const schemaCache = new WeakMap<AnyTool, ToolSchema>();

/**
 * The tools an agent may call: registers them, lists their OpenAI function schemas, and
 * runs calls with validated arguments, turning every failure into an error result the model
 * can read. Its state is which tools are disabled.
 */
export class Toolkit implements StateModule {
  readonly #tools = new Map<string, AnyTool>();
  readonly #disabled = new Set<string>();
  readonly #timeoutMs: number | undefined;
  readonly #maxResultChars: number;
  #parent: Toolkit | undefined;

  constructor(tools: readonly AnyTool[] = [], options: ToolkitOptions = {}) {
    checkOptions(options, ['timeoutMs', 'maxResultChars'], 'Toolkit');
    const { timeoutMs, maxResultChars = DEFAULT_MAX_RESULT_CHARS } = options;
    if (timeoutMs !== undefined && !(timeoutMs > 0 && Number.isFinite(timeoutMs))) {
      throw new InvalidArgumentError(
        'Toolkit: timeoutMs must be a positive number of milliseconds.',
      );
    }
    if (!isCharLimit(maxResultChars)) {
      throw new InvalidArgumentError(
        `Toolkit: maxResultChars must be a positive whole number of characters (or Infinity), got ${String(maxResultChars)}.`,
      );
    }
    this.#timeoutMs = timeoutMs;
    this.#maxResultChars = maxResultChars;
    for (const tool of tools) this.register(tool);
  }

  /**
   * Adds a tool and converts its schema once. Throws `ToolError` when the name is taken (here
   * or in a parent toolkit), `InvalidArgumentError` when it is not a usable tool.
   */
  register(tool: AnyTool): this {
    if (typeof tool?.name !== 'string' || typeof tool.execute !== 'function') {
      throw new InvalidArgumentError(
        'Toolkit.register: expected a Tool; build one with tool({ ... }).',
      );
    }
    if (this.#find(tool.name) !== undefined) {
      throw new ToolError(
        `A tool named "${tool.name}" is already registered; unregister it first or choose another name.`,
        tool.name,
      );
    }
    schemaOf(tool);
    this.#tools.set(tool.name, tool);
    return this;
  }

  /** Removes a tool registered on this toolkit; returns whether it was there. */
  unregister(name: string): boolean {
    return this.#tools.delete(name);
  }

  /** The tool with this name (enabled or not), or `undefined`. */
  get(name: string): AnyTool | undefined {
    return this.#find(name);
  }

  /** Whether a tool with this name is registered (enabled or not). */
  has(name: string): boolean {
    return this.#find(name) !== undefined;
  }

  /** Registered tool names in registration order (a parent's tools first). */
  names(): string[] {
    const own = [...this.#tools.keys()];
    const inherited = this.#parent?.names().filter((name) => !this.#tools.has(name)) ?? [];
    return [...inherited, ...own];
  }

  /** Whether the model is offered this tool and may call it. */
  isEnabled(name: string): boolean {
    if (this.#disabled.has(name)) return false;
    if (this.#tools.has(name)) return true;
    return this.#parent?.isEnabled(name) ?? false;
  }

  /**
   * Enables or disables a registered tool. A disabled tool is left out of `schemas()`, and a
   * call to it gets an error result. In an `extend()`ed toolkit this changes only the child,
   * and a tool disabled in the parent stays disabled.
   */
  setEnabled(name: string, enabled: boolean): void {
    if (!this.has(name)) {
      throw new ToolError(
        `Cannot enable or disable "${name}": no such tool. Registered tools: ${list(this.names()) || '(none)'}.`,
        name,
      );
    }
    if (enabled) this.#disabled.delete(name);
    else this.#disabled.add(name);
  }

  /**
   * The longest result, in characters, the model may get from the tool `name`: the tool's
   * own `maxResultChars`, else the toolkit's (default 50,000), also for an unknown name.
   * The agent applies it with `truncateResult(result, toolkit.resultLimit(result.name))`
   * after postActing hooks, which see the whole result.
   */
  resultLimit(name: string): number {
    return this.#find(name)?.maxResultChars ?? this.#maxResultChars;
  }

  /**
   * OpenAI function schemas of the enabled tools, in registration order. Each schema is
   * converted once per tool and deep-frozen: copy it before changing it.
   */
  schemas(): ToolSchema[] {
    // Every request asks for them: one array, not the names, enabled names and schemas.
    if (this.#parent === undefined && this.#disabled.size === 0) {
      const schemas: ToolSchema[] = [];
      for (const tool of this.#tools.values()) schemas.push(schemaOf(tool));
      return schemas;
    }
    return this.#enabledNames().map((name) => schemaOf(this.#find(name)!));
  }

  /**
   * A child toolkit that sees this toolkit's tools live (later registrations here show up
   * there) plus `tools`, which exist only in the child, so a per-call tool never leaks to
   * other agents sharing this toolkit. Throws `ToolError` when a name clashes.
   */
  extend(tools: readonly AnyTool[]): Toolkit {
    const child = new Toolkit([], {
      maxResultChars: this.#maxResultChars,
      ...(this.#timeoutMs !== undefined && { timeoutMs: this.#timeoutMs }),
    });
    child.#parent = this;
    for (const tool of tools) child.register(tool);
    return child;
  }

  /**
   * Runs one tool call. Cold: nothing runs until subscription. Emits zero or more `chunk`
   * events (every value of an Observable-returning tool but the last), then exactly one
   * `result`, then completes. Never errors: an unknown or disabled tool, arguments that are
   * not a JSON object or fail validation, a throw, rejection or Observable error, a timeout
   * and an abort of `context.signal` (output `[interrupted] ...`) each become a result with
   * `isError: true`; one made from a throw, rejection or Observable error keeps that error
   * (`toolErrorOf(result)`). The tool's own signal aborts on interrupt, timeout and unsubscribe.
   */
  execute(call: ToolCallRequest, context: ToolExecutionContext): Observable<ToolEvent> {
    // One Observable that starts the run itself: no defer and inner Observable per call.
    return new Observable<ToolEvent>((subscriber) => this.#start(call, context, subscriber));
  }

  /**
   * What subscribing to `execute(call, context)` does, with `sink` as the subscriber: the
   * same events, every failure an error result, the same timeout and abort; returns the
   * teardown, which stops the run as an unsubscribe does. `sink` must behave like a
   * subscriber (see `ToolRunSink`); its `error` runs only when an overridden `execute`
   * errors. For the agents of rxagent, which run each tool call without an Observable
   * around it; a toolkit whose `execute` was overridden or replaced is run through that
   * `execute`.
   *
   * @internal Not part of the public API; it may change in any release.
   */
  startExecute(
    call: ToolCallRequest,
    context: ToolExecutionContext,
    sink: Pick<Observer<ToolEvent>, 'next' | 'error' | 'complete'>,
  ): TeardownLogic {
    if (this.execute !== Toolkit.prototype.execute) {
      return this.execute(call, context).subscribe(sink);
    }
    return this.#start(call, context, sink);
  }

  /** `{ version: 1, disabled }`: the names of disabled tools. */
  stateDict(): JsonObject {
    return { version: 1, disabled: [...this.#disabled] };
  }

  /**
   * Restores which tools are disabled, after validating the whole state (`StateError` naming
   * the bad path, nothing changed). Names not registered yet are kept, so they apply once a
   * tool of that name is registered.
   */
  loadStateDict(state: JsonObject): void {
    if (!isJsonObject(state)) throw new StateError('Toolkit state must be an object.', '(root)');
    if (state['version'] !== 1) {
      throw new StateError(
        `Toolkit state version ${JSON.stringify(state['version'])} is not supported (expected 1).`,
        'version',
      );
    }
    const disabled = state['disabled'];
    if (!Array.isArray(disabled))
      throw new StateError('Toolkit state "disabled" must be an array of tool names.', 'disabled');
    disabled.forEach((name, index) => {
      if (typeof name !== 'string')
        throw new StateError('A disabled tool name must be a string.', `disabled[${index}]`);
    });
    this.#disabled.clear();
    for (const name of disabled as string[]) this.#disabled.add(name);
  }

  #start(call: ToolCallRequest, context: ToolExecutionContext, sink: ToolRunSink): TeardownLogic {
    const tool = this.isEnabled(call.name) ? this.#find(call.name) : undefined;
    if (tool === undefined) return answer(sink, this.#unknownTool(call));
    const resolved = resolveArguments(tool, call);
    if (!resolved.ok) return answer(sink, errorResult(call, resolved.message));
    const timeoutMs = tool.timeoutMs ?? this.#timeoutMs;
    const run = { tool, callId: call.id, args: resolved.args, context, timeoutMs };
    return startToolRun(run, sink);
  }

  #find(name: string): AnyTool | undefined {
    const own = this.#tools.get(name);
    if (own !== undefined || this.#parent === undefined) return own;
    return this.#parent.#find(name);
  }

  #enabledNames(): string[] {
    return this.names().filter((name) => this.isEnabled(name));
  }

  #unknownTool(call: ToolCallRequest): ToolEvent {
    const available = this.#enabledNames();
    const choices =
      available.length > 0 ? `Available tools: ${list(available)}.` : 'No tools are available.';
    return errorResult(call, `Tool "${call.name}" does not exist or is disabled. ${choices}`);
  }
}

/** Emits `event` as the whole run (a call answered without running its tool). */
function answer(subscriber: ToolRunSink, event: ToolEvent): undefined {
  subscriber.next(event);
  subscriber.complete();
  return undefined;
}

function errorResult(call: ToolCallRequest, output: string): ToolEvent {
  return {
    type: 'result',
    result: { type: 'tool_result', id: call.id, name: call.name, output, isError: true },
  };
}

function schemaOf(tool: AnyTool): ToolSchema {
  let schema = schemaCache.get(tool);
  if (schema === undefined) {
    schema = deepFreeze({
      type: 'function',
      function: {
        name: tool.name,
        description: tool.description,
        parameters: toJsonSchema(tool.parameters),
      },
    });
    schemaCache.set(tool, schema);
  }
  return schema;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

function list(names: readonly string[]): string {
  return names.join(', ');
}
