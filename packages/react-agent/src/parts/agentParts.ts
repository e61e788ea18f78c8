import type {
  CallContext,
  Hook,
  JsonObject,
  Msg,
  StateModule,
  Tool,
  ToolUseBlock,
} from '@rxagent/core';
import { concatMap, type Observable, of } from 'rxjs';
import type { Admission } from '../guardrails/agentGuardrails.js';
import type { ReActCallState } from '../loop/reactCallState.js';
import type { FinalAnswerDecision, FinalStep } from '../loop/step.js';
import type { NextStep } from '../memory/agentLongTermMemory.js';
import type { AgentPart } from './agentPart.js';

/**
 * The ordered parts of a ReActAgent (one per option set), asked by its loop at each step
 * boundary. Each boundary keeps only the parts that act there, picked once at construction,
 * so an agent without options asks nobody (loops over empty lists).
 */
export class AgentParts {
  /** The parts of every agent without options: one shared instance. */
  static readonly none = new AgentParts([]);

  readonly #admit: AgentPart[];
  readonly #startCall: AgentPart[];
  readonly #wrapSteps: AgentPart[];
  readonly #finalAnswer: AgentPart[];
  readonly #afterActing: AgentPart[];
  readonly #replyMetadata: AgentPart[];
  readonly #endCall: AgentPart[];

  constructor(readonly parts: readonly AgentPart[]) {
    this.#admit = parts.filter((part) => part.admit);
    this.#startCall = parts.filter((part) => part.startCall);
    this.#wrapSteps = parts.filter((part) => part.wrapSteps);
    this.#finalAnswer = parts.filter((part) => part.finalAnswer);
    this.#afterActing = parts.filter((part) => part.afterActing);
    this.#replyMetadata = parts.filter((part) => part.replyMetadata);
    this.#endCall = parts.filter((part) => part.endCall);
  }

  /** The tools the parts add, in part order. */
  // biome-ignore lint/suspicious/noExplicitAny: a tool of any arguments, as `Toolkit.extend` takes
  tools(): Tool<any>[] {
    return this.parts.flatMap((part) => part.tools ?? []);
  }

  /** `prompt` with each part's section appended (blank-line separated), built once. */
  systemPrompt(prompt: string): string {
    let joined = prompt;
    for (const { promptSection } of this.parts)
      if (promptSection !== undefined)
        joined = joined === '' ? promptSection : `${joined}\n\n${promptSection}`;
    return joined;
  }

  /** The state modules of the parts, by key, in part order. */
  states(): [string, StateModule][] {
    return this.parts.flatMap(({ state }) => (state ? [[state.key, state.module]] : []));
  }

  /** The hooks of the parts, in part order. */
  hooks(): Hook[] {
    return this.parts.flatMap(({ hook }) => (hook ? [hook] : []));
  }

  /** The hint sent last with each request: the first part's that gives one; none without such parts. */
  requestHint(): (() => Msg | undefined) | undefined {
    const hinting = this.parts.filter((part) => part.requestHint);
    if (hinting.length === 0) return undefined;
    if (hinting.length === 1) return hinting[0]!.requestHint!.bind(hinting[0]);
    return () => {
      for (const part of hinting) {
        const hint = part.requestHint!();
        if (hint !== undefined) return hint;
      }
      return undefined;
    };
  }

  /**
   * The input after every admitting part (one after another; the first refusal ends it), or
   * `undefined` when no part admits (the input goes on as it is).
   */
  admit(msgs: Msg[], context: CallContext): Observable<Admission> | undefined {
    const [first, ...rest] = this.#admit;
    if (first === undefined) return undefined;
    let admission = first.admit!(msgs, context);
    for (const part of rest)
      admission = admission.pipe(
        concatMap((so) => (so.kind === 'admitted' ? part.admit!(so.msgs, context) : of(so))),
      );
    return admission;
  }

  /** Lets each part set up the call's state, before its first step. */
  startCall(state: ReActCallState): void {
    for (const part of this.#startCall) part.startCall!(state);
  }

  /** `next` wrapped by each part, the first part outermost. */
  wrapSteps(
    next: NextStep,
    state: ReActCallState,
    input: readonly Msg[],
    fresh: boolean,
  ): NextStep {
    let wrapped = next;
    for (let i = this.#wrapSteps.length - 1; i >= 0; i--)
      wrapped = this.#wrapSteps[i]!.wrapSteps!(wrapped, state, input, fresh);
    return wrapped;
  }

  /** The first part's decision about a final answer, or `undefined` when none decides. */
  finalAnswer(
    reply: Msg,
    state: ReActCallState,
  ): FinalAnswerDecision | Observable<FinalAnswerDecision> | undefined {
    for (const part of this.#finalAnswer) {
      const decision = part.finalAnswer!(reply, state);
      if (decision !== undefined) return decision;
    }
    return undefined;
  }

  /** The first part's final step after a tool batch, or `undefined`. */
  afterActing(
    calls: readonly ToolUseBlock[],
    results: readonly Msg[],
    state: ReActCallState,
  ): FinalStep | undefined {
    for (const part of this.#afterActing) {
      const step = part.afterActing!(calls, results, state);
      if (step !== undefined) return step;
    }
    return undefined;
  }

  /** Every part's reply metadata, merged in part order (`undefined` when none gives any). */
  replyMetadata(state: ReActCallState): JsonObject | undefined {
    let merged: JsonObject | undefined;
    for (const part of this.#replyMetadata) {
      const metadata = part.replyMetadata!(state);
      if (metadata !== undefined) merged = { ...merged, ...metadata };
    }
    return merged;
  }

  /** Tells each part the call ended (however it ended). */
  endCall(state: ReActCallState): void {
    for (const part of this.#endCall) part.endCall!(state);
  }
}
