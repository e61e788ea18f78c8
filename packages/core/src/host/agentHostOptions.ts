import type { AgentBase } from '../agent/agentBase.js';
import type { DurableOptions } from '../durable/durableOptions.js';
import type { Session } from '../state/session.js';

/**
 * What `AgentHost` gives `create` besides the thread id: on a durable host, the agent's
 * `durable` option (the host's session, key = thread id) to pass on; `{}` otherwise.
 */
export interface AgentHostCreateContext {
  readonly durable?: DurableOptions;
}

/** Options of `new AgentHost()`. */
export interface AgentHostOptions {
  /**
   * Makes the agent of a thread, the first time the thread is used (or after eviction). On a
   * durable host, pass `context.durable` on as the agent's `durable` option:
   * `create: (threadId, { durable }) => new ReActAgent({ ..., durable })`.
   */
  readonly create: (threadId: string, context: AgentHostCreateContext) => AgentBase;
  /**
   * Where each thread's state lives (key = thread id): loaded when its agent is created,
   * saved after each call. Without one, a thread's state is kept in this process only when
   * it is evicted.
   */
  readonly session?: Session;
  /** How many threads keep a live agent; beyond it the least recently used idle one is evicted. Default 1000. */
  readonly maxLive?: number;
  /**
   * The agents are durable: `create(threadId, { durable })` receives `durable: { session,
   * key: threadId }` to give its agent (an agent that is not durable fails the thread's
   * first use with an error naming `create`). A thread's agent is loaded with `recover()`,
   * which first finishes a call a stopped process left unfinished there, and its own
   * checkpoints store it, so the host saves nothing itself and evicts without saving.
   * Needs `session` (an error at construction without one). Default `false`.
   */
  readonly durable?: boolean;
}

/** The option names `AgentHost` accepts (others are rejected, naming the likely one). */
export const AGENT_HOST_OPTION_KEYS = ['create', 'session', 'maxLive', 'durable'];
/** How many threads keep a live agent unless `maxLive` says otherwise. */
export const DEFAULT_MAX_LIVE = 1000;
