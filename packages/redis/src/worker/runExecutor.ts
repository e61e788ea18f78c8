import {
  type AgentEvent,
  type AgentHost,
  type Budget,
  type CallOptions,
  freezeMsg,
  isJsonObject,
  type Msg,
  userMsg,
} from '@rxagent/core';
import type { RedisConnection } from '../connection/redisConnection.js';
import type { RunRequest } from './runRequest.js';
import type { ThreadLeases } from './threadLeases.js';
import { type WireControl, wireError } from './wireEvent.js';
import type { FlightEnd, WorkerFlight } from './workerFlight.js';
import type { WorkerKeys } from './workerKeys.js';

/** What a `RunExecutor` runs runs with. */
export interface RunExecutorOptions {
  readonly host: AgentHost;
  readonly leases: ThreadLeases;
  readonly redis: RedisConnection;
  readonly keys: WorkerKeys;
}

/**
 * How a worker runs a request it holds on its host: a call (every event published to the
 * run's stream, fenced by the worker's hold), the recovery of a claimed call from its durable
 * checkpoint, or messages added to a thread; and how interrupts reach a run, whether asked
 * for before it started here or announced while it runs. Internal.
 */
export class RunExecutor {
  readonly #host: AgentHost;
  readonly #leases: ThreadLeases;
  readonly #redis: RedisConnection;
  readonly #keys: WorkerKeys;

  constructor(options: RunExecutorOptions) {
    this.#host = options.host;
    this.#leases = options.leases;
    this.#redis = options.redis;
    this.#keys = options.keys;
  }

  /** Runs a call on the host, publishing its events; resolves with its last event. */
  call(flight: WorkerFlight): Promise<FlightEnd> {
    const { request } = flight;
    const { maxIters, budget, callContext } = request.options;
    const options: CallOptions = {
      ...(typeof maxIters === 'number' && { maxIters }),
      // Checked by the agent's call (checkBudget), like any call's budget.
      ...(isJsonObject(budget) && { budget: budget as Budget }),
      ...(isJsonObject(callContext) && { callContext }),
    };
    const ended = flight.run(
      this.#host.stream(request.threadId, request.input, options),
      (event) => void this.append(flight, event),
    );
    void this.#checkInterrupt(request);
    return ended;
  }

  /**
   * The reply of a claimed request a durable host can recover (its call continued from its
   * checkpoint, or the reply the dead worker's call already stored); `undefined` when the
   * host is not durable or the request's call never started (then it runs as a new call).
   */
  async recover(flight: WorkerFlight): Promise<FlightEnd> {
    const { request } = flight;
    const inputId = request.input[0]?.id;
    if (!this.#host.durable || typeof inputId !== 'string') return undefined;
    const end = await flight.run(this.#host.recover(request.threadId, inputId), () => {});
    // Abandoned: nothing more happens here (the caller checks `flight.abandoned`).
    return end;
  }

  /** Adds a request's messages to its thread's conversation. */
  async observe(request: RunRequest): Promise<WireControl> {
    try {
      await this.#host.steer(request.threadId, request.input);
      return { type: 'observed' };
    } catch (error) {
      return { type: 'failed', error: wireError(error) };
    }
  }

  /** Appends one event to the run's stream, fenced by this worker's hold on the thread. */
  async append(flight: WorkerFlight, event: AgentEvent | WireControl): Promise<void> {
    const { request } = flight;
    try {
      const appended = await this.#leases.append(request, flight.seq++, event);
      if (!appended) flight.abandon();
    } catch {
      // Redis is down: the event is lost for followers; the run's reply still goes with its finish.
    }
  }

  /** An interrupt announced on the queue's channel (`{ runId, message? }`) for `flights`. */
  interrupt(text: string, flights: Iterable<WorkerFlight>): void {
    let notice: { runId?: unknown; message?: Msg };
    try {
      notice = JSON.parse(text) as { runId?: unknown; message?: Msg };
    } catch {
      return;
    }
    for (const flight of flights) {
      if (flight.request.runId !== notice.runId) continue;
      this.#host.interrupt(flight.request.threadId, interruptMessage(notice.message));
    }
  }

  /** Applies an interrupt asked for before the run started here. */
  async #checkInterrupt(request: RunRequest): Promise<void> {
    try {
      const text = await this.#redis.command<string | null>(
        ['GET', this.#keys.interrupt(request.runId)],
        'reading an interrupt',
      );
      if (text === null) return;
      const notice = JSON.parse(text) as { message?: Msg };
      this.#host.interrupt(request.threadId, interruptMessage(notice.message));
    } catch {
      // No interrupt could be read: the run goes on.
    }
  }
}

/** A Msg given with an interrupt, when it is one. */
function interruptMessage(message: unknown): Msg | undefined {
  if (typeof message === 'string') return userMsg(message);
  if (typeof message === 'object' && message !== null && Array.isArray((message as Msg).content)) {
    return freezeMsg(message as Msg);
  }
  return undefined;
}
