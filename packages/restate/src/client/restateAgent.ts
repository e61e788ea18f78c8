import {
  AgentBase,
  type AgentBaseOptions,
  type AgentEvent,
  type CallContext,
  freezeJson,
  type HookEvent,
  type InterruptContext,
  InvalidArgumentError,
  type JsonObject,
  type Msg,
  type ToolDecisions,
} from '@rxagent/core';
import { Observable } from 'rxjs';
import type { EventsPage } from '../object/runLog.js';
import type { CallRequest, WireCallOptions } from '../wire.js';
import { callHandler, type IngressTarget } from './ingress.js';

/** Options of `new RestateAgent()`. */
export interface RestateAgentOptions extends AgentBaseOptions {
  /** Restate's ingress, e.g. `http://127.0.0.1:8080`. */
  readonly ingressUrl: string;
  /** The virtual object's name (`restateAgent({ name })`). */
  readonly service: string;
  /** The conversation key: one object, one agent state, one call at a time. */
  readonly key: string;
}

/** Events of the remote call that the local call makes itself, so they are not forwarded. */
const OWN_EVENTS = new Set(['preCall', 'postCall', 'reply']);
/** Event types whose listeners make a plain `call()` follow the remote events. */
const FOLLOWED: readonly HookEvent['type'][] = [
  'preReasoning',
  'reasoningChunk',
  'postReasoning',
  'preActing',
  'actingChunk',
  'postActing',
  'preSummary',
  'postSummary',
];
/** Resends of a call whose connection to the ingress broke (each attaches to the same run). */
const CALL_ATTEMPTS = 5;

/**
 * An agent served by a Restate virtual object (`restateAgent()`), called through Restate's
 * ingress: an `AgentBase` like any other (`call`, `stream`, `reply`, `interrupt`, `observe`;
 * in hubs, pipelines, handoffs and as a tool). Each call invokes the object's `call` handler
 * for `key` with an idempotency key (a broken connection resends and attaches to the same
 * run, never a second run); `stream()` also reads the run's events from the `events` handler
 * (chunk events included) and, while the call waits for `decide`, an `approvalPending`
 * event with the pending tool calls. `interrupt(message?)` and unsubscribing reach the
 * remote call through the `interrupt` handler. Steered messages reach a followed remote
 * call with its next events read; otherwise they are stored through `observe` after it.
 *
 * The remote events pass this agent's hooks read-only: a hook cannot change a remote step.
 */
export class RestateAgent extends AgentBase {
  static override readonly optionKeys = ['ingressUrl', 'service', 'key'];

  readonly key: string;
  readonly #target: IngressTarget;
  #interruptMessage: Msg | undefined;

  constructor(options: RestateAgentOptions) {
    super(options);
    for (const field of ['ingressUrl', 'service', 'key'] as const) {
      if (typeof options[field] !== 'string' || options[field] === '')
        throw new InvalidArgumentError(
          `RestateAgent: options.${field} must be a non-empty string.`,
        );
    }
    this.key = options.key;
    this.#target = {
      ingressUrl: options.ingressUrl.replace(/\/+$/, ''),
      service: options.service,
      key: options.key,
      agentName: options.name,
    };
  }

  override interrupt(message?: Msg, source: InterruptContext['source'] = 'user'): void {
    this.#interruptMessage = message;
    super.interrupt(message, source);
  }

  /**
   * Answers the call of this key that waits for approval (the `toolDecisions` options); it
   * then goes on. Rejects with `RestateCallError` when nothing is pending or an id is not a
   * pending call's.
   */
  async decide(decisions: ToolDecisions = {}): Promise<void> {
    await callHandler(this.#target, 'decide', decisions);
  }

  protected override doCall(msgs: Msg[], context: CallContext): Observable<Msg> {
    return new Observable<Msg>((subscriber) => {
      const runId = crypto.randomUUID();
      const stop = new AbortController();
      const onAbort = (): void => {
        const message = this.#interruptMessage;
        this.#interruptMessage = undefined;
        callHandler(this.#target, 'interrupt', message === undefined ? {} : { message }).catch(
          () => undefined,
        );
      };
      context.signal.addEventListener('abort', onAbort, { once: true });
      const request: CallRequest = { input: msgs, options: wireOptions(context), runId };
      const reply = this.#call(request, stop.signal);
      const follows = context.forwardEvent !== undefined || FOLLOWED.some(context.listens, context);
      const followed = follows
        ? this.#follow(runId, context, reply, stop.signal, (error) => subscriber.error(error))
        : Promise.resolve();
      Promise.all([reply, followed]).then(
        ([msg]) => {
          subscriber.next(msg);
          subscriber.complete();
        },
        (error: unknown) => subscriber.error(error),
      );
      return () => {
        context.signal.removeEventListener('abort', onAbort);
        stop.abort();
      };
    });
  }

  protected override doObserve(msg: Msg): Observable<void> {
    return new Observable<void>((subscriber) => {
      const stop = new AbortController();
      callHandler(this.#target, 'observe', { input: [msg] }, { signal: stop.signal }).then(
        () => subscriber.complete(),
        (error: unknown) => subscriber.error(error),
      );
      return () => stop.abort();
    });
  }

  /** Invokes `call`, resending (same idempotency key) while the connection to the ingress breaks. */
  async #call(request: CallRequest, signal: AbortSignal): Promise<Msg> {
    const options = { idempotencyKey: request.runId as string, signal };
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await callHandler<Msg>(this.#target, 'call', request, options);
      } catch (error) {
        // A TypeError is fetch's "the connection failed"; everything else is an answer.
        if (!(error instanceof TypeError) || signal.aborted || attempt >= CALL_ATTEMPTS)
          throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    }
  }

  /**
   * Reads the run's events until its reply came and its log ended: each new one (by `seq`)
   * through this agent's hooks, read-only, and onto `stream()`; steered messages go to the
   * remote call between reads.
   */
  async #follow(
    runId: string,
    context: CallContext,
    reply: Promise<Msg>,
    signal: AbortSignal,
    fail: (error: unknown) => void,
  ): Promise<void> {
    let replied = false;
    reply.then(
      () => {
        replied = true;
      },
      () => {
        replied = true;
      },
    );
    let last = -1;
    const approvals = new Set<string>();
    // A steer cuts the current events read short, so it reaches the remote call at once
    // rather than when that (long-polling) read ends.
    let poll: AbortController | undefined;
    const stopListening = context.onSteer?.(() => poll?.abort());
    try {
      for (;;) {
        // Made before the steered messages are taken: a steer from here on cuts the read.
        poll = new AbortController();
        const steered = context.takeSteered();
        if (steered.length > 0) await callHandler(this.#target, 'steer', { input: steered });
        const done = replied;
        let page: EventsPage;
        try {
          page = await callHandler<EventsPage>(
            this.#target,
            'events',
            { runId, after: last },
            { signal: AbortSignal.any([signal, poll.signal]) },
          );
        } catch {
          // A steer: read again at once. Otherwise the reply decides how the call ends;
          // events are read again after a pause.
          if (signal.aborted || replied) return;
          if (!poll.signal.aborted) await new Promise((resolve) => setTimeout(resolve, 200));
          continue;
        }
        for (const event of page.events) {
          const seq = event['seq'];
          if (typeof seq === 'number') {
            if (seq <= last) continue;
            last = seq;
          } else {
            const id = JSON.stringify(event['approvalRequired'] ?? null);
            if (approvals.has(id)) continue;
            approvals.add(id);
          }
          this.#forward(event, context, fail);
        }
        if (signal.aborted || page.done || done) return;
      }
    } finally {
      stopListening?.();
    }
  }

  #forward(event: JsonObject, context: CallContext, fail: (error: unknown) => void): void {
    const type = String(event['type']);
    if (OWN_EVENTS.has(type)) return;
    // The Msgs an event carries (reply, accumulated, input…) are frozen like local ones.
    const local = Object.freeze({ ...freezeJson(event), agent: this }) as unknown as AgentEvent;
    if (type === 'approvalPending') {
      context.forwardEvent?.(local);
      return;
    }
    if (!context.listens(type as HookEvent['type'])) return;
    context.notify(readOnly(local as unknown as HookEvent)).subscribe({ error: fail });
  }
}

/** The JSON options of the call that go to the object: the step bound, the budget and who is asking. */
function wireOptions(context: CallContext): WireCallOptions {
  const { maxIters, budget, callContext } = context.options;
  return {
    ...(maxIters !== undefined && { maxIters }),
    ...(budget !== undefined && { budget: budget as unknown as JsonObject }),
    ...(callContext !== undefined && { callContext }),
  };
}

/** A remote event as a hook sees it: its controls refuse, since the step ran elsewhere. */
function readOnly(event: HookEvent): HookEvent {
  const refuse = (): never => {
    throw new TypeError(
      `A Restate run's ${event.type} event is read-only here: its step ran in the object.`,
    );
  };
  return Object.assign({ ...event }, { stopAgent: refuse, deny: refuse }) as HookEvent;
}
