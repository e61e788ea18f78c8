import {
  type Agent,
  createMsg,
  type HookEvent,
  InvalidArgumentError,
  type JsonObject,
  type MemoryRecallEvent,
  type MemoryWriteEvent,
  type Msg,
  type Tool,
  textOf,
} from '@rxagent/core';
import {
  type LongTermMemory,
  memoryBlockText,
  memoryTools,
  observeExchange,
} from '@rxagent/memory';
import { catchError, concatMap, defer, from, lastValueFrom, map, type Observable, of } from 'rxjs';
import type { ReActCallState } from '../loop/reactCallState.js';
import { type StepStart, stepObservable } from '../loop/reactLoop.js';
import type { FinalStep, RunnableStep, Step } from '../loop/step.js';
import { MemoryOutbox, type PendingFacts } from './memoryOutbox.js';

/** How an agent uses its long-term memory (AgentScope's names). */
export type LongTermMemoryMode = 'static' | 'agent' | 'both';

/** One step of the reason → act loop, as `doCall` runs it. */
export type NextStep = (step: RunnableStep) => Observable<Step> | StepStart;

/**
 * A ReActAgent's long-term memory, entering the call at its step boundaries: in the
 * `static` (and `both`) mode, one store round trip before the call's first model request
 * stores the memory block (working memory and recalled facts) right after the input, so
 * every later request — of this call and the next ones — repeats it byte for byte and a
 * prompt cache keeps hitting; nothing is read between steps. In the `agent` (and `both`)
 * mode the model gets the memory tools. With an observer, a final reply is turned into
 * facts (while the budget is not spent; the usage counts in the call's), kept in the
 * agent's state, and written once the reply was emitted (`afterCall`); a durable agent's
 * `recover()` loads facts a crash left unwritten, and they are written then.
 */
export class AgentLongTermMemory {
  /** Pending facts, in the agent's state; loading a state that holds some writes them. */
  readonly outbox = new MemoryOutbox(() => this.afterCall());
  #flushing: Promise<void> = Promise.resolve();

  constructor(
    readonly memory: LongTermMemory,
    readonly mode: LongTermMemoryMode,
    readonly agent: Agent & { readonly isRunning: boolean },
    readonly notify: <E extends HookEvent>(event: E) => Observable<E>,
  ) {}

  /** The memory tools the model gets (none in the `static` mode). */
  tools(): Tool<JsonObject>[] {
    return this.mode === 'static' ? [] : memoryTools(this.memory);
  }

  /**
   * `next` for one call: the first step runs after static recall (a fresh call in the
   * `static` or `both` mode), and a final step waits for the observer.
   */
  forCall(state: ReActCallState, input: readonly Msg[], fresh: boolean, next: NextStep): NextStep {
    let recall = fresh && this.mode !== 'agent';
    const observed = this.memory.observer !== undefined;
    const inputText = input.map((msg) => textOf(msg)).join('\n');
    return (step) => {
      const source = recall
        ? this.#recall(state, inputText).pipe(concatMap(() => stepObservable(next(step))))
        : observed
          ? stepObservable(next(step))
          : next(step);
      recall = false;
      if (!observed || typeof source === 'function') return source;
      return source.pipe(
        concatMap((out) => (out.kind === 'final' ? this.#observe(state, inputText, out) : of(out))),
      );
    };
  }

  /**
   * After a call (its `doCall` ended): the pending facts are written once the agent is idle
   * again — its guard is released right before its reply is emitted, so no write starts
   * before the reply is out (after ~1 s of back-to-back calls they go anyway).
   * `LongTermMemory.settled()` resolves when they are written.
   */
  afterCall(): void {
    if (this.outbox.pending.length === 0) return;
    // Idle already (a state loaded by recover()): the writes start at once.
    if (!this.agent.isRunning) this.memory.track(this.flush());
    else this.memory.track(this.#whenIdle().then(() => this.flush()));
  }

  /** Writes what the outbox holds; never rejects (failures go to `memoryWrite` events). */
  flush(): Promise<void> {
    this.#flushing = this.#flushing.then(() => this.#writeAll());
    return this.#flushing;
  }

  #whenIdle(): Promise<void> {
    return new Promise((resolve) => {
      let tries = 0;
      const check = (): void => {
        if (!this.agent.isRunning || ++tries > 1000) resolve();
        else setTimeout(check, 1);
      };
      setTimeout(check, 0);
    });
  }

  async #writeAll(): Promise<void> {
    for (const entry of this.outbox.pending) {
      const started = performance.now();
      let error: string | undefined;
      let keys: string[] = [];
      try {
        keys = await Promise.all(
          entry.facts.map((fact) => this.memory.saveIn(entry.namespace, fact)),
        );
        this.outbox.remove(entry);
      } catch (failure) {
        error = failure instanceof Error ? failure.message : String(failure);
      }
      await this.#report(entry, keys, performance.now() - started, error);
    }
  }

  async #report(
    entry: PendingFacts,
    keys: string[],
    ms: number,
    error: string | undefined,
  ): Promise<void> {
    const event: MemoryWriteEvent = {
      type: 'memoryWrite',
      agent: this.agent,
      namespace: entry.namespace,
      keys,
      source: 'observer',
      phase: 'written',
      ms,
      ...(error !== undefined && { error }),
    };
    // A hook's failure must not lose the write's outcome, nor fail a reply already emitted.
    await lastValueFrom(this.notify(event), { defaultValue: undefined }).catch(() => undefined);
  }

  /** Static recall: one round trip, the block stored after the input, a memoryRecall event. */
  #recall(state: ReActCallState, query: string): Observable<unknown> {
    const { context } = state;
    return defer(async () => {
      const started = performance.now();
      const recalled = await this.memory.recall(context.options.callContext, query, context.signal);
      const ms = performance.now() - started;
      const text = memoryBlockText(recalled, this.memory.hasWorkingMemory);
      if (text !== undefined) {
        const block = createMsg({
          name: 'memory',
          role: 'user',
          content: text,
          metadata: { longTermMemory: true },
        });
        state.transcript.add(block);
      }
      const event: MemoryRecallEvent = {
        type: 'memoryRecall',
        agent: this.agent,
        namespace: recalled.namespace,
        query,
        items: recalled.facts.map(({ key, score }) => ({ key, score })),
        workingMemory: recalled.workingMemory.version > 0,
        ms,
        source: 'static',
      };
      return event;
    }).pipe(
      concatMap((event) => (context.listens('memoryRecall') ? context.notify(event) : of(event))),
    );
  }

  /**
   * The observer on a final reply, while the budget is not spent: its facts go to the
   * outbox, its usage into the call's. A failing observer is reported, never fails the call.
   */
  #observe(state: ReActCallState, input: string, final: FinalStep): Observable<Step> {
    const observer = this.memory.observer;
    const reply = textOf(final.reply);
    if (observer === undefined || reply === '' || state.meter.spent() !== undefined)
      return of(final);
    const { context } = state;
    const namespace = this.memory.namespaceOf(context.options.callContext);
    const started = performance.now();
    return observeExchange(
      observer.model,
      observer.instructions,
      { input, reply },
      context.signal,
    ).pipe(
      concatMap((observation) => {
        state.meter.addRequest(observation.usage, observation.model ?? observer.model.modelName);
        if (observation.facts.length > 0) this.outbox.push({ namespace, facts: observation.facts });
        if (!context.listens('memoryWrite')) return of(final);
        // The facts are written after the reply: this event reports the observation and its usage.
        const event: MemoryWriteEvent = {
          type: 'memoryWrite',
          agent: this.agent,
          namespace,
          keys: [],
          source: 'observer',
          phase: 'observed',
          ms: performance.now() - started,
          ...(observation.usage !== undefined && { usage: observation.usage }),
        };
        return context.notify(event).pipe(map(() => final));
      }),
      catchError((failure: unknown) => {
        if (context.signal.aborted) throw failure;
        const error = failure instanceof Error ? failure.message : String(failure);
        const event: MemoryWriteEvent = {
          type: 'memoryWrite',
          agent: this.agent,
          namespace,
          keys: [],
          source: 'observer',
          phase: 'observed',
          ms: performance.now() - started,
          error,
        };
        return from(context.notify(event)).pipe(map(() => final));
      }),
    );
  }
}

/** The checked `longTermMemoryMode` option (default `'both'`). */
export function longTermMemoryMode(agentName: string, mode: unknown): LongTermMemoryMode {
  if (mode === undefined) return 'both';
  if (mode === 'static' || mode === 'agent' || mode === 'both') return mode;
  throw new InvalidArgumentError(
    `ReActAgent "${agentName}": longTermMemoryMode must be 'static', 'agent' or 'both', got ${JSON.stringify(mode)}.`,
  );
}
