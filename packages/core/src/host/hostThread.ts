import type { AgentBase } from '../agent/agentBase.js';
import { TurnQueue } from '../agent/turnQueue.js';
import type { ThreadRun } from './threadRun.js';

/**
 * One conversation of an AgentHost: its agent (created and loaded on first use), the queue
 * that runs its operations one at a time, and the run in flight.
 */
export class HostThread {
  readonly turns = new TurnQueue(() => this.run !== undefined);
  /** The operation in flight (a call, or delivering steered messages), if any. */
  run: ThreadRun | undefined;
  /** Whether the agent changed since it was last saved. */
  dirty = false;
  #agent: Promise<AgentBase> | undefined;
  #loaded: AgentBase | undefined;

  constructor(
    readonly threadId: string,
    readonly load: (threadId: string) => Promise<AgentBase>,
  ) {}

  /** The thread's agent, once loaded. */
  get agent(): AgentBase | undefined {
    return this.#loaded;
  }

  /** Whether the thread runs or waits for anything: such a thread is never evicted. */
  get busy(): boolean {
    return this.run !== undefined || this.turns.length > 0;
  }

  /** Takes `agent` as the thread's agent from now on (already loaded). */
  replace(agent: AgentBase): void {
    this.#loaded = agent;
    this.#agent = Promise.resolve(agent);
  }

  /** The agent, created and loaded the first time; a failed load is tried again next time. */
  ready(): Promise<AgentBase> {
    this.#agent ??= this.load(this.threadId).then(
      (agent) => {
        this.#loaded = agent;
        return agent;
      },
      (error: unknown) => {
        this.#agent = undefined;
        throw error;
      },
    );
    return this.#agent;
  }
}
