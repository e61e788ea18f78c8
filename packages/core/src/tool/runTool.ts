import {
  from,
  isObservable,
  Observable,
  type ObservableInput,
  type Subscriber,
  Subscription,
  type TeardownLogic,
} from 'rxjs';
import type { Agent } from '../agent/agent.js';
import type { AgentEvent } from '../agent/agentEvent.js';
import type { Budget } from '../budget/budget.js';
import { LazyAbortController } from '../internal/lazyAbortController.js';
import type { JsonObject } from '../json.js';
import type { ToolResultBlock } from '../message/contentBlock.js';
import type {
  Tool,
  ToolEvent,
  ToolExecutionContext,
  ToolOutput,
  ToolResume,
  ToolReturn,
  ToolUsageReport,
} from './tool.js';
import { withToolError } from './toolErrorOf.js';

/**
 * The result text of a tool call cut by an interrupt or a cancellation, whoever records it
 * (the toolkit when the tool's signal aborts, an agent sealing its open calls).
 */
export function interruptedOutput(toolName: string): string {
  return `[interrupted] Tool "${toolName}" was interrupted before it finished.`;
}

/** One run's inputs, after the toolkit found the tool and validated its arguments. */
export interface ToolRun {
  readonly tool: Tool<never>;
  readonly callId: string;
  readonly args: unknown;
  readonly context: ToolExecutionContext;
  readonly timeoutMs: number | undefined;
}

/**
 * Runs a tool once. Cold. Emits a `chunk` for every value of an Observable-returning tool
 * but the last, then exactly one `result`, then completes; never errors: a throw, rejection,
 * Observable error, bad return value, timeout or abort of `context.signal` becomes an error
 * result (one made from a throw, rejection or Observable error keeps that error: see
 * `toolErrorOf`). The tool gets its own signal, aborted on interrupt, timeout and unsubscribe (created
 * only if the tool reads `context.signal`); every listener and timer is removed when the run
 * ends.
 */
export function runTool(run: ToolRun): Observable<ToolEvent> {
  return new Observable<ToolEvent>((subscriber) => startToolRun(run, subscriber));
}

/**
 * Where a run sends its events: a subscriber, or an observer that behaves like one (the run
 * sends nothing after its `complete`, nor once its teardown ran).
 */
export type ToolRunSink = Pick<Subscriber<ToolEvent>, 'next' | 'complete'>;

/** What `runTool(run)` does for `subscriber` once subscribed; returns the teardown. */
export function startToolRun(run: ToolRun, subscriber: ToolRunSink): TeardownLogic {
  return new ToolRunEngine(run, subscriber).start();
}

/**
 * One tool run. A class rather than a closure per callback: a synchronous tool, the common
 * case, costs this object and its result, with no Observable around its return value, and
 * no abort listener or timer (adding and removing a listener costs more than many tools).
 * It is the abort listener itself (`handleEvent`), so listening makes no function either.
 */
class ToolRunEngine {
  readonly #run: ToolRun;
  readonly #subscriber: ToolRunSink;
  readonly #controller = new LazyAbortController();
  #inner: Subscription | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #settled = false;
  #listening = false;
  #hasLast = false;
  #last: ToolOutput = '';

  constructor(run: ToolRun, subscriber: ToolRunSink) {
    this.#run = run;
    this.#subscriber = subscriber;
  }

  start(): TeardownLogic {
    const { tool, context } = this.#run;
    if (context.signal.aborted) {
      this.handleEvent();
      return undefined;
    }
    this.#invoke(tool, new RunContext(context, this.#controller));
    if (this.#settled) return undefined;
    if (context.signal.aborted) {
      this.handleEvent();
      return undefined;
    }
    this.#listening = true;
    context.signal.addEventListener('abort', this, { once: true });
    const ms = this.#run.timeoutMs;
    if (ms !== undefined) this.#timer = setTimeout(() => this.#timeout(tool.name, ms), ms);
    return () => {
      if (this.#settled) return;
      this.#settled = true;
      this.#release();
      this.#controller.abort(new DOMException('The tool run was unsubscribed.', 'AbortError'));
    };
  }

  /** The abort of the caller's signal: an interrupted result. */
  handleEvent(): void {
    const { tool, context } = this.#run;
    this.#settle(interruptedOutput(tool.name), true, { reason: context.signal.reason });
  }

  #invoke(tool: Tool<never>, context: ToolExecutionContext): void {
    let value: ToolReturn;
    try {
      value = tool.execute(this.#run.args as never, context);
    } catch (error) {
      this.#error(error);
      return;
    }
    if (!isObservable(value) && !isPromiseLike(value)) {
      // What subscribing to of(value) would do, without the Observable.
      this.#value(value);
      this.#complete();
      return;
    }
    const source: Observable<unknown> = isObservable(value)
      ? value
      : from(value as ObservableInput<unknown>);
    this.#inner = new Subscription();
    this.#inner.add(
      source.subscribe({
        next: (item) => this.#value(item),
        error: (error: unknown) => this.#error(error),
        complete: () => this.#complete(),
      }),
    );
  }

  #value(value: unknown): void {
    if (this.#settled) return;
    const output = toToolOutput(value);
    if (typeof output === 'object' && 'problem' in output) {
      this.#fail(output.problem);
      return;
    }
    if (this.#hasLast) this.#subscriber.next({ type: 'chunk', output: this.#last });
    this.#last = output;
    this.#hasLast = true;
  }

  #error(error: unknown): void {
    this.#fail(`failed: ${messageOf(error)}`, error);
  }

  #complete(): void {
    if (this.#hasLast) this.#settle(this.#last, false);
    else this.#fail('completed without producing a result.');
  }

  #timeout(name: string, ms: number): void {
    const reason = new DOMException(`Tool "${name}" timed out after ${ms} ms.`, 'TimeoutError');
    this.#settle(
      `Tool "${name}" timed out after ${ms} ms; try a smaller request or a different approach.`,
      true,
      { reason },
    );
  }

  #fail(message: string, error?: unknown): void {
    this.#settle(`Tool "${this.#run.tool.name}" ${message}`, true, undefined, error);
  }

  #settle(
    output: ToolOutput,
    isError: boolean,
    abort?: { reason: unknown },
    error?: unknown,
  ): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#release();
    if (abort !== undefined) this.#controller.abort(abort.reason);
    const result: ToolResultBlock = isError
      ? { type: 'tool_result', id: this.#run.callId, name: this.#run.tool.name, output, isError }
      : { type: 'tool_result', id: this.#run.callId, name: this.#run.tool.name, output };
    if (error !== undefined) withToolError(result, error);
    this.#subscriber.next({ type: 'result', result });
    this.#subscriber.complete();
  }

  #release(): void {
    if (this.#listening) this.#run.context.signal.removeEventListener('abort', this);
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#inner?.unsubscribe();
  }
}

/**
 * The context a tool gets: the caller's, with the run's own signal, created on first read.
 * A class, so the getter lives on the prototype: an object literal with an accessor is a
 * dictionary-mode object, and one that redefines a spread `signal` as an accessor measurably
 * slows every run (see BENCHMARKS.md).
 */
class RunContext implements ToolExecutionContext {
  readonly toolCallId: string;
  readonly agent?: Agent;
  readonly budget?: Budget;
  readonly reportUsage?: (report: ToolUsageReport) => void;
  readonly callContext?: JsonObject;
  readonly resume?: ToolResume;
  readonly forwardEvent?: (event: AgentEvent) => void;
  readonly #controller: LazyAbortController;

  constructor(context: ToolExecutionContext, controller: LazyAbortController) {
    this.toolCallId = context.toolCallId;
    if (context.agent !== undefined) this.agent = context.agent;
    if (context.budget !== undefined) this.budget = context.budget;
    if (context.reportUsage !== undefined) this.reportUsage = context.reportUsage;
    if (context.callContext !== undefined) this.callContext = context.callContext;
    if (context.resume !== undefined) this.resume = context.resume;
    if (context.forwardEvent !== undefined) this.forwardEvent = context.forwardEvent;
    this.#controller = controller;
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}

function isToolOutput(value: unknown): value is ToolOutput {
  if (typeof value === 'string') return true;
  if (!Array.isArray(value)) return false;
  return value.every(
    (block: unknown) =>
      typeof block === 'object' &&
      block !== null &&
      (((block as { type?: unknown }).type === 'text' &&
        typeof (block as { text?: unknown }).text === 'string') ||
        ((block as { type?: unknown }).type === 'image' &&
          typeof (block as { url?: unknown }).url === 'string')),
  );
}

/**
 * What a tool's value is sent as: a string or content blocks as they are, any other JSON
 * value as its JSON text; a value without JSON text (undefined, a function, a bigint, a
 * circular object) is a problem for an error result.
 */
function toToolOutput(value: unknown): ToolOutput | { readonly problem: string } {
  if (isToolOutput(value)) return value;
  const kind = typeof value;
  if (value === undefined || kind === 'function' || kind === 'symbol' || kind === 'bigint') {
    return { problem: `returned ${value === undefined ? 'undefined' : `a ${kind}`}; ${EXPECTED}` };
  }
  try {
    const text: unknown = JSON.stringify(value);
    if (typeof text === 'string') return text;
    return { problem: `returned a value with no JSON text; ${EXPECTED}` };
  } catch (error) {
    return { problem: `returned a value that is not JSON (${messageOf(error)}); ${EXPECTED}` };
  }
}

const EXPECTED =
  'a tool must return a string, an array of text/image blocks, or a JSON value (sent as its JSON text).';

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
