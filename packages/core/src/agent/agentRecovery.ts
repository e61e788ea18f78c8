import { concatMap, defer, EMPTY, from, type Observable, of, throwError } from 'rxjs';
import type { Checkpoint, CheckpointCall } from '../durable/checkpoint.js';
import { Checkpointer } from '../durable/checkpointer.js';
import { checkDurableOptions, type DurableOptions } from '../durable/durableOptions.js';
import { DurableRun } from '../durable/durableRun.js';
import { keyPlace, loadError } from '../durable/keyPlace.js';
import { AgentBusyError, InvalidArgumentError, UnfinishedRunError } from '../errors.js';
import { newId } from '../internal/newId.js';
import type { JsonObject } from '../json.js';
import type { Msg } from '../message/msg.js';
import type { Agent } from './agent.js';
import type { RecoverOptions } from './agentBaseOptions.js';
import type { CallOptions } from './callOptions.js';

/** What `AgentRecovery` needs of its agent. */
export interface RecoveryHost {
  /** Its `loadStateDict` (guarded, as a subclass may override it) loads what `recover()` finds. */
  readonly agent: Agent;
  /** Whether a call of the agent is in flight. */
  running(): boolean;
  /** `loadStateDict` without the running guard: for the call that is loading. */
  loadState(state: JsonObject): void;
  /** What a checkpoint stores as the agent's state. */
  checkpointState(): JsonObject;
  /** Runs a call like `call()`, continuing `recovering` (a checkpoint's unfinished call). */
  run(input: Msg[], options: CallOptions, recovering: CheckpointCall): Observable<Msg>;
}

/**
 * The durable side of a durable agent (option `durable: { session, key }`): its checkpointer,
 * `recover()`, the recovery of a request made through `asTool()`, the load before the first
 * call of a fresh agent, and the `DurableRun` of each call.
 */
export class AgentRecovery {
  readonly checkpointer: Checkpointer;
  readonly #host: RecoveryHost;
  /** Neither loaded its key nor found it empty (see `loadFirst`). */
  #fresh = true;

  constructor(durable: DurableOptions, host: RecoveryHost) {
    this.checkpointer = new Checkpointer(checkDurableOptions(host.agent.name, durable));
    this.#host = host;
  }

  /** Whether the agent has neither loaded its checkpoint nor found none: its first call loads. */
  get fresh(): boolean {
    return this.#fresh;
  }

  /** `AgentBase.recover()` of a durable agent (see there). */
  recover(options: RecoverOptions): Observable<Msg> {
    return defer(() => {
      if (this.#host.running()) throw new AgentBusyError(this.#host.agent.name);
      return from(this.#load());
    }).pipe(concatMap((checkpoint) => this.#continue(checkpoint, options)));
  }

  /** What `recover()` does with the checkpoint it loaded. */
  #continue(checkpoint: Checkpoint | undefined, options: RecoverOptions): Observable<Msg> {
    if (checkpoint === undefined) return EMPTY;
    this.#fresh = false;
    this.#adopt(() => this.#host.agent.loadStateDict(checkpoint.state));
    const call = checkpoint.call;
    const { inputId, ...callOptions } = options;
    if (inputId !== undefined) {
      if (call?.input[0]?.id !== inputId) return EMPTY;
      if (call.status === 'finished') return call.reply ? of(call.reply) : EMPTY;
    }
    if (call?.status !== 'running') return EMPTY;
    const { structuredOutput, ...saved } = call.options;
    if (structuredOutput === true && options.structuredOutput === undefined) {
      throw new InvalidArgumentError(
        `${this.#host.agent.name}.recover(): the unfinished call asked for structured output; pass its schema again: recover({ structuredOutput: schema }).`,
      );
    }
    return this.#host.run([...call.input], { ...saved, ...callOptions }, call);
  }

  /** The reply to a request already made by tool call `requestId` (recovered), if any. */
  readonly delegate = (requestId: string): Observable<Msg> =>
    defer(async () => {
      if (this.checkpointer.synced || this.#host.running()) return undefined;
      const checkpoint = await this.#load();
      this.#fresh = false;
      if (checkpoint === undefined) return undefined;
      this.#adopt(() => this.#host.agent.loadStateDict(checkpoint.state));
      return checkpoint.call?.input[0]?.id === requestId ? checkpoint.call : undefined;
    }).pipe(
      concatMap((call) => {
        if (call === undefined) return EMPTY;
        if (call.status === 'finished') return call.reply ? of(call.reply) : EMPTY;
        return this.#host.run([...call.input], call.options, call);
      }),
    );

  /**
   * What the first `call()` of a fresh durable agent does before its first save: it never
   * saves over a checkpoint it has not loaded. The stored state replaces the agent's (as
   * `recover()` loads it); when it holds an unfinished call, the call fails with
   * `UnfinishedRunError` (nothing saved) and the next `call()` checks again. Emits once.
   */
  loadFirst(): Observable<void> {
    // One Observable over one Promise: the load and what follows it in one async step.
    return from(this.#loadFirst());
  }

  async #loadFirst(): Promise<void> {
    const checkpoint = await this.#load();
    if (checkpoint !== undefined) {
      this.#adopt(() => this.#host.loadState(checkpoint.state));
      if (checkpoint.call?.status === 'running') {
        const { session, key } = this.checkpointer;
        throw new UnfinishedRunError(this.#host.agent.name, key, keyPlace(session, key));
      }
    }
    this.#fresh = false;
  }

  /** The durable side of a call. */
  durableRun(
    input: readonly Msg[],
    options: CallOptions,
    recovering: CheckpointCall | undefined,
  ): DurableRun {
    const json: JsonObject = {};
    if (options.maxIters !== undefined) json['maxIters'] = options.maxIters;
    if (options.budget !== undefined) json['budget'] = options.budget as unknown as JsonObject;
    if (options.structuredOutput !== undefined) json['structuredOutput'] = true;
    if (options.callContext !== undefined) json['callContext'] = options.callContext;
    const call = { id: newId(), input, options: json };
    const recovery = recovering && { call: recovering };
    return new DurableRun(this.checkpointer, () => this.#host.checkpointState(), call, recovery);
  }

  /** The checkpoint under the durable key; a malformed one rejects naming the key and file. */
  async #load(): Promise<Checkpoint | undefined> {
    const { session, key } = this.checkpointer;
    try {
      return await this.checkpointer.load();
    } catch (error) {
      throw loadError(error, session, key);
    }
  }

  /** Runs `load` (of a checkpoint's state); a state it rejects throws naming the key and file. */
  #adopt(load: () => void): void {
    try {
      load();
    } catch (error) {
      const { session, key } = this.checkpointer;
      throw loadError(error, session, key);
    }
  }
}

/** `recover()` of an agent that is not durable: an `InvalidArgumentError` on subscription. */
export function notDurable(agentName: string): Observable<never> {
  return throwError(
    () =>
      new InvalidArgumentError(
        `${agentName}.recover(): the agent is not durable; create it with durable: { session, key }.`,
      ),
  );
}
