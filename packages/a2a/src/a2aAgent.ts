import type { Client } from '@a2a-js/sdk/client';
import { ClientFactory } from '@a2a-js/sdk/client';
import {
  AgentBase,
  type AgentBaseOptions,
  assistantMsg,
  type CallContext,
  InterruptedError,
  InvalidArgumentError,
  type Msg,
  newId,
} from '@rxagent/core';
import { concatMap, defer, EMPTY, from, map, type Observable } from 'rxjs';
import { A2AError } from './a2aError.js';
import { exchange } from './exchange.js';
import { outgoingMessage, type WaitingTask } from './outgoingMessage.js';
import type { TurnEnd } from './remoteTurn.js';

/** Options of `A2AAgent`. */
export interface A2AAgentOptions extends Partial<AgentBaseOptions> {
  /** The remote agent's base URL (its card is at `<url>/.well-known/agent-card.json`). */
  readonly url: string;
  /** The agent's name here (default `"a2a"`): what handoffs and hubs call it. */
  readonly name?: string;
  /** The A2A context of this agent's conversation (default: a new id per A2AAgent). */
  readonly contextId?: string;
  /** How long a cancelled remote task may take to end before the call stops waiting (default 5,000 ms). */
  readonly cancelTimeoutMs?: number;
}

/**
 * An agent whose calls go to a remote A2A 1.0 agent, through the `@a2a-js/sdk` client: the
 * caller writes the same code as for a local agent (hubs, pipelines, handoffs, `asTool()`).
 *
 * - A call sends one message in this agent's A2A context (one remote conversation per
 *   A2AAgent): the text of its input, preceded by what it observed since its last call
 *   (`name: text` lines), so in a handoff it answers from the conversation it heard. With a
 *   streaming card the reply's text streams as `reasoningChunk` events.
 * - The reply is the task's artifact text. A task that ends input-required is a reply with
 *   `generateReason: 'approval_required'`, `pendingToolCalls` and `approvalRequired` (from the
 *   status's data part); the next call with `toolDecisions(...)` (or no input, which approves
 *   every pending call) sends the decisions on that task and resumes it.
 * - `interrupt()` cancels the remote task (`CancelTask`) and the call ends with an interrupt
 *   reply; unsubscribing cancels it too. A failed or rejected task, or a remote that cannot be
 *   reached, errors the call with `A2AError`.
 */
export class A2AAgent extends AgentBase {
  static override readonly optionKeys = ['url', 'contextId', 'cancelTimeoutMs'];

  readonly url: string;
  readonly contextId: string;
  readonly #cancelTimeoutMs: number;
  #client: Promise<Client> | undefined;
  /** The task waiting for input after an approval stop. */
  #waitingTask: WaitingTask | undefined;
  readonly #observed: Msg[] = [];

  constructor(options: A2AAgentOptions) {
    super({ ...options, name: options?.name ?? 'a2a' });
    this.url = checkedUrl(options.url);
    this.contextId = options.contextId ?? newId();
    this.#cancelTimeoutMs = options.cancelTimeoutMs ?? 5000;
  }

  /** The remote agent's card, read once (the first call reads it too). */
  async client(): Promise<Client> {
    this.#client ??= new ClientFactory().createFromUrl(this.url).catch((error: unknown) => {
      this.#client = undefined;
      throw new A2AError(
        `Could not read the agent card of ${this.url}: ${error instanceof Error ? error.message : String(error)}. Check that the A2A agent runs there.`,
        this.url,
        undefined,
        { cause: error },
      );
    });
    return this.#client;
  }

  protected override doObserve(msg: Msg): Observable<void> {
    this.#observed.push(msg);
    return EMPTY;
  }

  protected doCall(msgs: Msg[], context: CallContext): Observable<Msg> {
    return defer(() => from(this.client())).pipe(
      concatMap((client) => this.#send(client, msgs, context)),
    );
  }

  #send(client: Client, msgs: Msg[], context: CallContext): Observable<Msg> {
    const outgoing = outgoingMessage(msgs, this.#observed, this.contextId, this.#waitingTask);
    if (outgoing.usedObserved) this.#observed.length = 0;
    this.#waitingTask = undefined;
    return exchange({
      client,
      message: outgoing.message,
      context,
      agentName: this.name,
      url: this.url,
      cancelTimeoutMs: this.#cancelTimeoutMs,
    }).pipe(map((end) => this.#replyOf(end)));
  }

  #replyOf(end: TurnEnd): Msg {
    if (end.kind === 'failed')
      throw new A2AError(
        `The A2A agent at ${this.url} ended its task ${end.state}${end.text === '' ? '' : `: ${end.text}`}`,
        this.url,
        end.state,
      );
    if (end.kind === 'canceled') {
      if (this.interruptRequested) throw new InterruptedError(this.name);
      return assistantMsg(end.text || 'The remote agent canceled the task.', {
        name: this.name,
        metadata: { generateReason: 'interrupted', interrupted: true },
      });
    }
    const reply = end.msg;
    if (reply.metadata['generateReason'] === 'approval_required') {
      const ids = reply.metadata['pendingToolCalls'];
      const taskId = reply.metadata['a2aTaskId'];
      if (typeof taskId === 'string' && taskId !== '')
        this.#waitingTask = {
          id: taskId,
          callIds: Array.isArray(ids)
            ? ids.map((call) => String((call as { id?: unknown }).id))
            : [],
        };
    }
    return reply;
  }
}

/**
 * The remote agent's base URL, checked when the agent is made rather than at its first call:
 * an absolute http or https URL.
 */
function checkedUrl(url: unknown): string {
  const shown = typeof url === 'string' ? JSON.stringify(url) : String(url);
  if (typeof url !== 'string' || url === '')
    throw new InvalidArgumentError(
      `A2AAgent: options.url must be the remote agent's base URL, e.g. "http://127.0.0.1:9000" (got ${shown}).`,
    );
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidArgumentError(
      `A2AAgent: options.url ${shown} is not an absolute URL: give the remote agent's base URL, e.g. "http://127.0.0.1:9000".`,
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new InvalidArgumentError(
      `A2AAgent: options.url ${shown} must be an http or https URL (A2A's JSON-RPC binding runs over HTTP).`,
    );
  return url;
}
