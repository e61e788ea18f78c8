import { type Task, TaskState } from '@a2a-js/sdk';
import { InMemoryTaskStore, type ServerCallContext, type TaskStore } from '@a2a-js/sdk/server';

/** The states in which a task holds no running call: the terminal ones and input-required. */
const STOPPED: ReadonlySet<TaskState | undefined> = new Set([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
  TaskState.TASK_STATE_INPUT_REQUIRED,
]);

/**
 * The task store of `a2aHandler`: the SDK's in-memory store, but holding at most `maxTasks`
 * finished tasks (completed, failed, canceled, rejected, or stopped waiting for input); once
 * there are more, the one that finished longest ago is dropped, and asking for it answers
 * the protocol's "task not found". A task that is running is always kept. Tasks are kept per
 * tenant and caller, as the SDK's store keeps them.
 */
export class BoundedTaskStore implements TaskStore {
  readonly #tasks = new Map<string, Task>();
  /** The keys of the finished tasks, in the order they finished (oldest first). */
  readonly #finished = new Set<string>();

  constructor(readonly maxTasks: number) {}

  /** How many tasks the store holds, running and finished. */
  get size(): number {
    return this.#tasks.size;
  }

  save(task: Task, context: ServerCallContext): Promise<void> {
    const key = keyOf(task.id, context);
    this.#tasks.set(key, structuredClone(task));
    if (!STOPPED.has(task.status?.state)) {
      this.#finished.delete(key);
      return Promise.resolve();
    }
    // A finished task saved again (a late update) keeps its place in the order.
    if (!this.#finished.has(key)) this.#finished.add(key);
    for (const oldest of this.#finished) {
      if (this.#finished.size <= this.maxTasks) break;
      this.#finished.delete(oldest);
      this.#tasks.delete(oldest);
    }
    return Promise.resolve();
  }

  load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    const task = this.#tasks.get(keyOf(taskId, context));
    return Promise.resolve(task === undefined ? undefined : structuredClone(task));
  }

  /**
   * Lists the caller's tasks with the SDK's own filters, order and pages: the held tasks of
   * this caller are handed to a fresh SDK store, which answers (at most `maxTasks` finished
   * tasks plus the running ones, so the copy is bounded too).
   */
  async list(
    params: Parameters<TaskStore['list']>[0],
    context: ServerCallContext,
  ): ReturnType<TaskStore['list']> {
    const prefix = scopeOf(context);
    const view = new InMemoryTaskStore();
    for (const [key, task] of this.#tasks)
      if (key.startsWith(prefix)) await view.save(task, context);
    return view.list(params, context);
  }
}

/** The caller's scope: tenant and user, as the SDK's in-memory store separates them. */
function scopeOf(context: ServerCallContext): string {
  return `${JSON.stringify([context.tenant ?? '', context.user?.userName ?? ''])}\n`;
}

function keyOf(taskId: string, context: ServerCallContext): string {
  return scopeOf(context) + taskId;
}
