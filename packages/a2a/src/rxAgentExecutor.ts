import { type Message, type Task, TaskState } from '@a2a-js/sdk';
import {
  AgentEvent as A2AEvent,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from '@a2a-js/sdk/server';
import { type AgentEvent, type AgentThreads, type Msg, newId, textOf } from '@rxagent/core';
import type { Subscription } from 'rxjs';
import { a2aMessage, dataPart, pendingCallsData, textPart } from './a2aParts.js';
import { agentInputOf } from './agentInputOf.js';

/** Tasks waiting for input whose context is remembered for a cancel. */
const MAX_WAITING = 10_000;

/** A task whose agent call is in flight. */
interface Run {
  readonly contextId: string;
  readonly bus: ExecutionEventBus;
  /** Ends the run as canceled without waiting for the agent (after the grace period). */
  readonly abandon: () => void;
  readonly subscription: Subscription;
}

/**
 * The A2A `AgentExecutor` that runs each task's message as one call of the context's agent:
 * the task, status `working`, the reply's text as artifact updates while it streams (the first
 * chunk at once, then what arrived at most every `streamIntervalMs`), then a
 * final artifact with the whole text and status `completed` — or `input-required` with the
 * pending calls in a data part (an approval stop), `canceled` (interrupted), `failed` (the
 * call errored, with the error's message). `cancelTask` interrupts the running call; one that
 * has not ended after `graceMs` is unsubscribed and the task ends canceled anyway.
 */
export class RxAgentExecutor implements AgentExecutor {
  readonly #runs = new Map<string, Run>();
  /** The context of each task waiting for input (oldest first, at most `MAX_WAITING`). */
  readonly #waiting = new Map<string, string>();

  constructor(
    readonly threads: AgentThreads,
    readonly graceMs: number,
    /** Streamed text after the first chunk is sent at most this often (0: every chunk). */
    readonly streamIntervalMs: number,
  ) {}

  execute = (context: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const { taskId, contextId, userMessage } = context;
    this.#waiting.delete(taskId);
    bus.publish(A2AEvent.task(context.task ?? newTask(taskId, contextId, userMessage)));
    let input: Msg;
    try {
      input = agentInputOf(userMessage);
    } catch (error) {
      publishStatus(bus, taskId, contextId, TaskState.TASK_STATE_FAILED, messageOf(error));
      return Promise.resolve();
    }
    publishStatus(bus, taskId, contextId, TaskState.TASK_STATE_WORKING);
    return new Promise<void>((resolve) => {
      const artifactId = newId();
      let streamed = false;
      let ended = false;
      // Each artifact update costs the SDK's task store a copy of the task, which grows with
      // every appended part: batching the chunks keeps a long reply from costing O(n²).
      let pending = '';
      let flushTimer: NodeJS.Timeout | undefined;
      const flush = (): void => {
        flushTimer = undefined;
        if (ended || pending === '') return;
        publishArtifact(bus, taskId, contextId, artifactId, pending, true, false);
        pending = '';
      };
      const chunk = (text: string): void => {
        if (!streamed || this.streamIntervalMs === 0) {
          publishArtifact(bus, taskId, contextId, artifactId, text, streamed, false);
          streamed = true;
          return;
        }
        pending += text;
        flushTimer ??= setTimeout(flush, this.streamIntervalMs);
      };
      const end = (state: TaskState, text?: string, data?: Msg): void => {
        if (ended) return;
        ended = true;
        clearTimeout(flushTimer);
        this.#runs.delete(taskId);
        if (state === TaskState.TASK_STATE_INPUT_REQUIRED) this.#wait(taskId, contextId);
        publishStatus(bus, taskId, contextId, state, text, data);
        resolve();
      };
      const onEvent = (event: AgentEvent): void => {
        if (event.type === 'reasoningChunk') {
          const text = event.delta.text;
          if (text !== undefined && text !== '') chunk(text);
          return;
        }
        if (event.type !== 'reply') return;
        const reply = event.msg;
        const reason = reply.metadata['generateReason'];
        if (reason === 'interrupted') end(TaskState.TASK_STATE_CANCELED, textOf(reply));
        else if (reason === 'approval_required')
          end(TaskState.TASK_STATE_INPUT_REQUIRED, textOf(reply), reply);
        else {
          // The whole text replaces what was streamed, so the stored task holds one part.
          publishArtifact(bus, taskId, contextId, artifactId, textOf(reply), false, true);
          end(TaskState.TASK_STATE_COMPLETED);
        }
      };
      const subscription = this.threads.stream(contextId, input).subscribe({
        next: onEvent,
        error: (error: unknown) => end(TaskState.TASK_STATE_FAILED, messageOf(error)),
        complete: () => end(TaskState.TASK_STATE_FAILED, 'The agent ended without a reply.'),
      });
      if (!ended) {
        const abandon = (): void => {
          subscription.unsubscribe();
          end(TaskState.TASK_STATE_CANCELED, 'The task was canceled.');
        };
        this.#runs.set(taskId, { contextId, bus, abandon, subscription });
      }
    });
  };

  cancelTask = (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    const run = this.#runs.get(taskId);
    if (run === undefined) {
      // Not running (waiting for input): nothing to stop, the task just ends.
      const contextId = this.#waiting.get(taskId) ?? '';
      this.#waiting.delete(taskId);
      publishStatus(
        bus,
        taskId,
        contextId,
        TaskState.TASK_STATE_CANCELED,
        'The task was canceled.',
      );
      return Promise.resolve();
    }
    this.threads.interrupt(run.contextId);
    if (this.#runs.has(taskId)) {
      const timer = setTimeout(run.abandon, this.graceMs);
      timer.unref();
      run.subscription.add(() => clearTimeout(timer));
    }
    return Promise.resolve();
  };

  #wait(taskId: string, contextId: string): void {
    this.#waiting.set(taskId, contextId);
    for (const id of this.#waiting.keys()) {
      if (this.#waiting.size <= MAX_WAITING) break;
      this.#waiting.delete(id);
    }
  }

  /** Interrupts the task's running call (its client went away); a no-op when none runs. */
  interruptRun(taskId: string): void {
    const run = this.#runs.get(taskId);
    if (run !== undefined) void this.cancelTask(taskId, run.bus);
  }
}

function newTask(taskId: string, contextId: string, userMessage: Message): Task {
  return {
    id: taskId,
    contextId,
    status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: now() },
    artifacts: [],
    history: [userMessage],
    metadata: undefined,
  };
}

function publishStatus(
  bus: ExecutionEventBus,
  taskId: string,
  contextId: string,
  state: TaskState,
  text?: string,
  approvalReply?: Msg,
): void {
  // An approval stop often has no text of its own: its message is then the data part alone.
  const parts = text === undefined || text === '' ? [] : [textPart(text)];
  if (approvalReply !== undefined) parts.push(dataPart(pendingCallsData(approvalReply)));
  const message = parts.length > 0 ? a2aMessage('agent', parts, { contextId, taskId }) : undefined;
  bus.publish(
    A2AEvent.statusUpdate({
      taskId,
      contextId,
      status: { state, message, timestamp: now() },
      metadata: undefined,
    }),
  );
}

function publishArtifact(
  bus: ExecutionEventBus,
  taskId: string,
  contextId: string,
  artifactId: string,
  text: string,
  append: boolean,
  lastChunk: boolean,
): void {
  bus.publish(
    A2AEvent.artifactUpdate({
      taskId,
      contextId,
      artifact: {
        artifactId,
        name: 'reply',
        description: '',
        parts: [textPart(text)],
        metadata: undefined,
        extensions: [],
      },
      append,
      lastChunk,
      metadata: undefined,
    }),
  );
}

function now(): string {
  return new Date().toISOString();
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
