import { defer, finalize, from, mergeMap, type Observable } from 'rxjs';
import { InvalidArgumentError } from '../errors.js';
import type { Msg } from '../message/msg.js';
import { AgentBase } from './agentBase.js';
import type { AgentEvent } from './agentEvent.js';
import type { CallInput } from './callOptions.js';

/**
 * What a server needs from an agent host: one conversation per thread id, run and interrupted
 * by that id. An AgentHost (one agent per thread, with its own storage and eviction) fits as
 * it is; `a2aHandler` and `mcpServer` accept one in place of an agent.
 */
export interface AgentHostLike {
  /** Runs one call on the thread's conversation, emitting its events, then the reply. Cold. */
  stream(threadId: string, input?: CallInput): Observable<AgentEvent>;
  /** Asks the thread's running call, if any, to stop. */
  interrupt(threadId: string): void;
}

/** Makes the agent of a new context (an A2A `contextId`, an MCP session). */
export type AgentFactory = (contextId: string) => AgentBase | Promise<AgentBase>;

/**
 * What serves a remote caller: one agent (every context shares its conversation), a factory
 * (one agent per context, kept in a bounded map), or an agent host.
 */
export type AgentSource = AgentBase | AgentFactory | AgentHostLike;

/**
 * Where a server (A2A, MCP) runs its calls: `stream` (cold, like `AgentBase.stream`) and
 * `interrupt` by context id.
 */
export interface AgentThreads {
  stream(contextId: string, input: Msg | Msg[] | undefined): Observable<AgentEvent>;
  interrupt(contextId: string): void;
}

/**
 * The threads of `source`, for a server that maps its own conversation ids (an A2A
 * `contextId`, an MCP session) to agents. One agent serves every context with its one
 * conversation. A factory's agents are made on a context's first call and kept per context id
 * (most recently used last); when more than `maxContexts` are kept, the least recently used
 * idle ones are dropped (a running one never is), so a dropped context starts a new
 * conversation when it comes back; a factory that fails or returns something else than an
 * agent errors that call, and is asked again next time. An agent host is used as it is.
 * Throws `InvalidArgumentError` for a source of another kind, naming `owner`.
 */
export function agentThreads(
  source: AgentSource,
  maxContexts: number,
  owner: string,
): AgentThreads {
  if (source instanceof AgentBase) {
    return {
      stream: (_contextId, input) => source.stream(input),
      interrupt: () => source.interrupt(),
    };
  }
  if (typeof source === 'function') return new FactoryThreads(source, maxContexts);
  if (
    typeof source === 'object' &&
    source !== null &&
    typeof (source as AgentHostLike).stream === 'function' &&
    typeof (source as AgentHostLike).interrupt === 'function'
  ) {
    return {
      stream: (contextId, input) => defer(() => source.stream(contextId, input)),
      interrupt: (contextId) => source.interrupt(contextId),
    };
  }
  throw new InvalidArgumentError(
    `${owner}: expected an agent, a function (contextId) => agent, or an agent host with stream(threadId, input) and interrupt(threadId); got ${describe(source)}.`,
  );
}

class FactoryThreads implements AgentThreads {
  readonly #agents = new Map<string, Promise<AgentBase>>();
  readonly #running = new Map<string, AgentBase>();

  constructor(
    readonly factory: AgentFactory,
    readonly maxContexts: number,
  ) {}

  stream(contextId: string, input: Msg | Msg[] | undefined): Observable<AgentEvent> {
    return defer(() => from(this.#agent(contextId))).pipe(
      mergeMap((agent) => this.#run(contextId, agent, input)),
    );
  }

  interrupt(contextId: string): void {
    this.#running.get(contextId)?.interrupt();
  }

  #run(
    contextId: string,
    agent: AgentBase,
    input: Msg | Msg[] | undefined,
  ): Observable<AgentEvent> {
    return defer(() => {
      this.#running.set(contextId, agent);
      return agent.stream(input);
    }).pipe(
      finalize(() => {
        if (this.#running.get(contextId) === agent) this.#running.delete(contextId);
      }),
    );
  }

  #agent(contextId: string): Promise<AgentBase> {
    const known = this.#agents.get(contextId);
    if (known !== undefined) {
      // Most recently used last, so eviction drops the least recently used.
      this.#agents.delete(contextId);
      this.#agents.set(contextId, known);
      return known;
    }
    const made = Promise.resolve()
      .then(() => this.factory(contextId))
      .then((agent) => {
        if (!(agent instanceof AgentBase))
          throw new InvalidArgumentError(
            `The agent factory returned ${describe(agent)} for context ${contextId}, not an agent.`,
          );
        return agent;
      });
    // A factory that failed is asked again next time.
    made.catch(() => this.#agents.delete(contextId));
    this.#agents.set(contextId, made);
    this.#evict();
    return made;
  }

  #evict(): void {
    for (const id of this.#agents.keys()) {
      if (this.#agents.size <= this.maxContexts) return;
      if (!this.#running.has(id)) this.#agents.delete(id);
    }
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object') return `an object (${Object.keys(value).slice(0, 5).join(', ')})`;
  return typeof value;
}
