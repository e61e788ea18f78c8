import type { AgentBase, AgentEvent, JsonObject } from '@rxagent/core';

/** How many finished runs' events a process keeps for late readers. */
const KEPT_RUNS = 256;

/** What the `events` handler answers: events after the reader's cursor, and whether the run ended. */
export interface EventsPage {
  readonly events: readonly JsonObject[];
  /** The `seq` of the last event in `events` (the reader's next cursor), or the cursor it sent. */
  readonly last: number;
  readonly done: boolean;
}

/**
 * The events of one run (one invocation of `call`) in this process, numbered by `seq` from 0,
 * and the agent running it. A retried invocation starts a new log and its replay emits the
 * same events again in the same order (recorded steps replay their recorded chunks), so a
 * reader that skips the `seq` values it has seen resumes where it was.
 */
export class RunLog {
  readonly events: JsonObject[] = [];
  agent: AgentBase | undefined;
  done = false;
  #waiters = new Set<() => void>();

  constructor(
    readonly key: string,
    readonly runId: string,
  ) {}

  /** Appends an event (as JSON) and wakes the readers. */
  push(event: AgentEvent | JsonObject): void {
    this.events.push({ ...encodeEvent(event), seq: this.events.length });
    this.#wake();
  }

  /** Marks the run ended and wakes the readers. */
  end(): void {
    this.done = true;
    this.#wake();
  }

  /** The events after `after`, waiting up to `waitMs` for one when there is none yet. */
  async read(after: number, waitMs: number): Promise<EventsPage> {
    if (this.events.length - 1 <= after && !this.done) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(wake, waitMs);
        function wake(): void {
          clearTimeout(timer);
          resolve();
        }
        this.#waiters.add(wake);
      });
    }
    const events = this.events.slice(after + 1);
    return { events, last: after + events.length, done: this.done };
  }

  #wake(): void {
    const waiters = [...this.#waiters];
    this.#waiters.clear();
    for (const wake of waiters) wake();
  }
}

/** The runs of one Restate agent definition in this process: the running one per key, and recent ones by run id. */
export class RunRegistry {
  readonly #running = new Map<string, RunLog>();
  readonly #byRun = new Map<string, RunLog>();

  /** Starts the log of a run of `key` (replacing an older log of the same run id). */
  start(key: string, runId: string): RunLog {
    const log = new RunLog(key, runId);
    this.#running.set(key, log);
    this.#byRun.delete(runId);
    this.#byRun.set(runId, log);
    while (this.#byRun.size > KEPT_RUNS) {
      const oldest = this.#byRun.keys().next().value as string;
      this.#byRun.delete(oldest);
    }
    return log;
  }

  /** Ends a run's log; it stays readable by run id for a while. */
  end(log: RunLog): void {
    log.end();
    if (this.#running.get(log.key) === log) this.#running.delete(log.key);
  }

  /** The run going on for `key` in this process, if any. */
  running(key: string): RunLog | undefined {
    return this.#running.get(key);
  }

  /** The log of run `runId`, while this process keeps it. */
  find(runId: string): RunLog | undefined {
    return this.#byRun.get(runId);
  }
}

/** An event as JSON: its agent becomes the agent's name, an error its name, message and code. */
function encodeEvent(event: AgentEvent | JsonObject): JsonObject {
  const plain: Record<string, unknown> = { ...event };
  const agent = plain['agent'];
  if (typeof agent === 'object' && agent !== null) plain['agent'] = (agent as AgentBase).name;
  const error = plain['error'];
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    plain['error'] = {
      name: error.name,
      message: error.message,
      ...(typeof code === 'string' && { code }),
    };
  }
  // Functions (stopAgent, deny) are left out when the SDK serialises the page as JSON.
  return plain as JsonObject;
}
