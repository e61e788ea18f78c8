import { defer, EMPTY, Observable, type TeardownLogic, throwError } from 'rxjs';
import type { CheckpointCall } from '../durable/checkpoint.js';
import type { DurableOptions } from '../durable/durableOptions.js';
import { AgentBusyError, CallAbortedError, InterruptedError } from '../errors.js';
import type { AgentHooks } from '../hooks/agentHooks.js';
import { callInput } from '../internal/normalizeInput.js';
import { frozenJson, type JsonObject } from '../json.js';
import type { Msg } from '../message/msg.js';
import type { LoadStateOptions } from '../state/stateOwner.js';
import type { StateRegistry } from '../state/stateRegistry.js';
import { ActiveCall } from './activeCall.js';
import type { AgentEvent } from './agentEvent.js';
import { AgentRecovery } from './agentRecovery.js';
import { loadAgentState } from './agentState.js';
import type { CallInput, CallOptions, InterruptContext } from './callOptions.js';
import { type CallsAgent, runCallSteps } from './callSteps.js';
import type { HubSubscribers } from './hubSubscribers.js';
import type { PhaseSink } from './phases.js';
import { deliverSteered } from './steerInput.js';
import { TurnQueue } from './turnQueue.js';

/**
 * The calls of one agent: the running guard (the call in flight), the interrupt flag, the
 * queue of waiting calls, steered messages no call took, and the steps every call runs.
 * AgentBase is the public face; this is the machinery behind `call()`.
 */
export class AgentCalls {
  /** The durable side of the agent's calls, when it is durable. */
  readonly recovery: AgentRecovery | undefined;
  /** Who observes the agent's replies, by hub (made by the first hub it joins). */
  subscribers: HubSubscribers | undefined;
  readonly #agent: CallsAgent;
  readonly #hooks: AgentHooks;
  readonly #state: StateRegistry;
  #active: ActiveCall | undefined;
  #interrupt: InterruptContext | undefined;
  #turns: TurnQueue | undefined; // made by the first queue()

  /**
   * `ownStateDict`: the agent's `stateDict()` is AgentBase's, so a checkpoint can take the
   * state without copies of the memory's messages (`StateModule.checkpointDict`).
   */
  constructor(
    agent: CallsAgent,
    hooks: AgentHooks,
    state: StateRegistry,
    durable: DurableOptions | undefined,
    ownStateDict: boolean,
  ) {
    this.#agent = agent;
    this.#hooks = hooks;
    this.#state = state;
    if (durable === undefined) return;
    this.recovery = new AgentRecovery(durable, {
      agent,
      running: () => this.#active !== undefined,
      loadState: (json) => this.loadState(json),
      checkpointState: ownStateDict ? () => state.checkpointDict() : () => agent.stateDict(),
      run: (input, options, recovering) =>
        new Observable<Msg>((subscriber) =>
          this.start(subscriber, input, options, undefined, recovering),
        ),
    });
  }

  /** Loads `json` into the agent's state, without the running guard (see `loadAgentState`). */
  loadState(json: JsonObject, options: LoadStateOptions = {}): void {
    const agent = this.#agent;
    loadAgentState(this.#state, agent.name, json, options, (from) =>
      agent.renameSpeaker(from, agent.name),
    );
  }

  /** The agent whose calls these are. */
  get agent(): CallsAgent {
    return this.#agent;
  }

  /** The agent's hooks. */
  get hooks(): AgentHooks {
    return this.#hooks;
  }

  /** The call in flight, if any. */
  get active(): ActiveCall | undefined {
    return this.#active;
  }

  /** What `interrupt()` asked during the current call, if it did. */
  get interrupted(): InterruptContext | undefined {
    return this.#interrupt;
  }

  /** Errors with `InterruptedError` when `interrupt()` came during this call; else completes. */
  checkInterrupted(): Observable<never> {
    return defer(() =>
      this.#interrupt ? throwError(() => new InterruptedError(this.#agent.name)) : EMPTY,
    );
  }

  /** Flags the interrupt and aborts the running call's signal (see `AgentBase.interrupt`). */
  interrupt(message: Msg | undefined, source: InterruptContext['source']): void {
    this.#interrupt = message === undefined ? { source } : { message, source };
    this.#active?.abort(new InterruptedError(this.#agent.name));
  }

  /** Sends the running call's event snapshots to `sink` too (see `tapRunning`); false when idle. */
  tap(sink: (event: AgentEvent) => void): boolean {
    this.#active?.context.tap(sink);
    return this.#active !== undefined;
  }

  /** `start()`'s call once every call before it ended (see `AgentBase.queue`). */
  queue(start: () => Observable<Msg>): Observable<Msg> {
    this.#turns ??= new TurnQueue(() => this.#active !== undefined);
    return this.#turns.run(start);
  }

  /** Adds `msgs` to the running call, or delivers them through `doObserve` when idle. */
  steer(msgs: readonly Msg[]): void {
    if (this.#active) this.#active.context.steer(msgs);
    else this.#deliverSteered(msgs);
  }

  /**
   * Starts one call with `subscriber` as its subscriber (or an observer acting as one) and
   * returns its teardown: the guard (1) and the interrupt reset (2), then `runCallSteps`. `sink`
   * gets the call's event snapshots (`stream()`), of the types `sinkTypes` (all when absent).
   */
  start(
    subscriber: PhaseSink<Msg>,
    input: CallInput | undefined,
    given: CallOptions,
    sink: ((event: AgentEvent) => void) | undefined,
    recovering?: CheckpointCall,
    sinkTypes?: ReadonlySet<string>,
  ): TeardownLogic {
    const agent = this.#agent;
    let msgs: Msg[];
    let options: CallOptions;
    try {
      // 1. The running guard: a call while another is in flight changes nothing.
      if (this.#active) throw new AgentBusyError(agent.name);
      msgs = callInput(agent, input, given, agent.supportsStructuredOutput);
      // A call its caller aborted already stores, saves and runs nothing.
      if (given.signal?.aborted) throw new CallAbortedError(agent.name, given.signal.reason);
      // Who is asking stays as it was when the call started, whatever the caller does.
      options =
        given.callContext === undefined
          ? given
          : { ...given, callContext: frozenJson(given.callContext) };
    } catch (error) {
      subscriber.error(error);
      return;
    }
    const systemPrompt = agent.defaultSystemPrompt();
    const release = (): void => {
      if (this.#active !== call) return;
      this.#active = undefined;
      const left = call.context.takeLeftSteered();
      if (left.length > 0) this.#deliverSteered(left);
      this.#turns?.kick();
    };
    const hooksFor = this.#hooks.forType;
    const setup = { agent, options, systemPrompt, hooksFor, sinkTypes };
    const durable = this.recovery?.durableRun(msgs, options, recovering);
    const recovery = { durable, recovering: recovering !== undefined };
    const call = new ActiveCall({ ...setup, sink, release, ...recovery }, subscriber);
    this.#active = call;
    // 2. An interrupt made while idle does not cut this call.
    this.#interrupt = undefined;
    runCallSteps(call, msgs, this);
    return () => call.close();
  }

  #deliverSteered(msgs: readonly Msg[]): void {
    const agent = this.#agent;
    deliverSteered(agent, msgs, (msg) => agent.doObserve(msg), this.#hooks.runError);
  }
}
