import { from, isObservable, Observable, type ObservableInput, of, Subscription } from 'rxjs';
import type { Agent } from '../agent/agent.js';
import { LazyAbortController } from '../internal/lazyAbortController.js';
import type { ToolResultBlock } from '../message/contentBlock.js';
import type { Tool, ToolEvent, ToolExecutionContext, ToolOutput, ToolReturn } from './tool.js';

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
 * result. The tool gets its own signal, aborted on interrupt, timeout and unsubscribe (created
 * only if the tool reads `context.signal`); every listener and timer is removed when the run
 * ends.
 */
export function runTool(run: ToolRun): Observable<ToolEvent> {
  return new Observable<ToolEvent>((subscriber) => {
    const { tool, context } = run;
    const controller = new LazyAbortController();
    const inner = new Subscription();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let settled = false;
    let listening = false;

    const release = (): void => {
      if (listening) context.signal.removeEventListener('abort', onAbort);
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      inner.unsubscribe();
    };
    const settle = (output: ToolOutput, isError: boolean, abort?: { reason: unknown }): void => {
      if (settled) return;
      settled = true;
      release();
      if (abort !== undefined) controller.abort(abort.reason);
      const result: ToolResultBlock = {
        type: 'tool_result',
        id: run.callId,
        name: tool.name,
        output,
      };
      subscriber.next({ type: 'result', result: isError ? { ...result, isError: true } : result });
      subscriber.complete();
    };
    const fail = (message: string): void => settle(`Tool "${tool.name}" ${message}`, true);
    function onAbort(): void {
      settle(interruptedOutput(tool.name), true, {
        reason: context.signal.reason,
      });
    }

    if (context.signal.aborted) {
      onAbort();
      return undefined;
    }
    let hasLast = false;
    let last: ToolOutput = '';
    const source = invoke(tool, run.args, new RunContext(context, controller));
    inner.add(
      source.subscribe({
        next: (value) => {
          const output = toToolOutput(value);
          if (typeof output === 'object' && 'problem' in output) {
            fail(output.problem);
            return;
          }
          if (hasLast) subscriber.next({ type: 'chunk', output: last });
          last = output;
          hasLast = true;
        },
        error: (error: unknown) => fail(`failed: ${messageOf(error)}`),
        complete: () =>
          hasLast ? settle(last, false) : fail('completed without producing a result.'),
      }),
    );
    // A tool that answered while subscribed (a synchronous one) needs no listener or timer:
    // adding and removing an abort listener costs more than many tools themselves.
    if (settled) return undefined;
    if (context.signal.aborted) {
      onAbort();
      return undefined;
    }
    listening = true;
    context.signal.addEventListener('abort', onAbort, { once: true });
    if (run.timeoutMs !== undefined) {
      const ms = run.timeoutMs;
      timer = setTimeout(() => {
        const reason = new DOMException(
          `Tool "${tool.name}" timed out after ${ms} ms.`,
          'TimeoutError',
        );
        settle(
          `Tool "${tool.name}" timed out after ${ms} ms; try a smaller request or a different approach.`,
          true,
          { reason },
        );
      }, ms);
    }

    return () => {
      if (settled) return;
      settled = true;
      release();
      controller.abort(new DOMException('The tool run was unsubscribed.', 'AbortError'));
    };
  });
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
  readonly #controller: LazyAbortController;

  constructor(context: ToolExecutionContext, controller: LazyAbortController) {
    this.toolCallId = context.toolCallId;
    if (context.agent !== undefined) this.agent = context.agent;
    this.#controller = controller;
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }
}

function invoke(
  tool: Tool<never>,
  args: unknown,
  context: ToolExecutionContext,
): Observable<unknown> {
  let value: ToolReturn;
  try {
    value = tool.execute(args as never, context);
  } catch (error) {
    return new Observable((subscriber) => subscriber.error(error));
  }
  if (isObservable(value)) return value;
  if (isPromiseLike(value)) return from(value as ObservableInput<unknown>);
  return of(value);
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
