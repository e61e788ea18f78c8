import {
  type CallContext,
  type ContentBlock,
  checkGuardrails,
  freezeMsg,
  type GuardedContent,
  type Guardrail,
  type GuardrailContent,
  type GuardrailReport,
  type GuardrailStage,
  type GuardrailToolCall,
  type Hook,
  type HookEvent,
  type Msg,
  type PostActingEvent,
  type PreActingEvent,
  runGuardrails,
  textOf,
  toolOutputText,
} from '@rxagent/core';
import { concat, concatMap, from, map, type Observable, of, toArray } from 'rxjs';
import { notifyReports, refusalReply } from './guardrailEvents.js';
import { OutputGuard } from './outputGuard.js';

/** What the input guardrails made of a call's input. */
export type Admission =
  | { readonly kind: 'admitted'; readonly msgs: Msg[] }
  | { readonly kind: 'refused'; readonly reply: Msg };

/** Runs after every other hook, so a guardrail has the last word on a tool call and its result. */
const LAST = Number.MAX_SAFE_INTEGER;

/**
 * The guardrails of a ReActAgent (its `guardrails` option), one collaborator for the four
 * stages: `admit` checks a call's input before anything is stored or sent, `outputGuard`
 * makes the call's holder of streamed replies, and `toolHook` checks tool calls (before they
 * run) and their results (before anything but hooks sees them).
 */
export class AgentGuardrails {
  private constructor(private readonly guardrails: readonly Guardrail[]) {}

  /** The checked option, or `undefined` without guardrails. */
  static of(agentName: string, option: unknown): AgentGuardrails | undefined {
    const guardrails = checkGuardrails(`ReActAgent "${agentName}"`, option);
    return guardrails.length > 0 ? new AgentGuardrails(guardrails) : undefined;
  }

  /** Whether some guardrail checks `stage`. */
  watches(stage: GuardrailStage): boolean {
    return this.guardrails.some((g) => g.stages.includes(stage));
  }

  /**
   * Checks each input message with text (not tool results), one after another: a
   * replacement replaces that message's text; a trip refuses the whole call with a reply
   * naming the guardrail (nothing of the input is stored, no model request is made).
   */
  admit(msgs: readonly Msg[], context: CallContext): Observable<Admission> {
    if (!this.watches('input')) return of({ kind: 'admitted', msgs: [...msgs] });
    return from(msgs).pipe(
      concatMap((msg) => this.#checkInput(msg, context)),
      toArray(),
      map((checked): Admission => {
        const trip = checked.find((c) => c.trip !== undefined)?.trip;
        if (trip)
          return { kind: 'refused', reply: refusalReply(context.agent.name, trip, 'input') };
        return { kind: 'admitted', msgs: checked.map((c) => c.msg) };
      }),
    );
  }

  /** The holder of the call's streamed replies, when output guardrails are set. */
  outputGuard(context: CallContext): OutputGuard | undefined {
    return this.watches('output') ? new OutputGuard(this.guardrails, context) : undefined;
  }

  /**
   * The hook that checks tool calls and results, when such guardrails are set; `running`
   * gives the agent's running call (its signal, and where the verdicts are reported).
   */
  toolHook(running: () => CallContext | undefined): Hook | undefined {
    const calls = this.watches('toolCall');
    const results = this.watches('toolResult');
    if (!calls && !results) return undefined;
    return {
      name: 'guardrails',
      priority: LAST,
      events: [
        ...(calls ? (['preActing'] as const) : []),
        ...(results ? (['postActing'] as const) : []),
      ],
      onEvent: (event: HookEvent) => {
        const context = running();
        if (context === undefined) return undefined;
        if (event.type === 'preActing') return this.#checkCall(event, context);
        if (event.type === 'postActing') return this.#checkResult(event, context);
        return undefined;
      },
    };
  }

  #checkInput(msg: Msg, context: CallContext): Observable<{ msg: Msg; trip?: GuardrailReport }> {
    const text = textOf(msg);
    if (msg.role === 'tool' || text === '') return of({ msg });
    return this.#run('input', text, context).pipe(
      concatMap((guarded) =>
        concat(
          notifyReports(context, guarded.reports),
          of(
            guarded.trip
              ? { msg, trip: guarded.trip }
              : { msg: guarded.content === text ? msg : withText(msg, guarded.content) },
          ),
        ),
      ),
    );
  }

  #checkCall(event: PreActingEvent, context: CallContext): Observable<never> | undefined {
    if (event.deniedReason !== undefined) return undefined; // a hook denied it already
    const { toolCall } = event;
    const content: GuardrailToolCall = { name: toolCall.name, input: toolCall.input };
    return this.#run('toolCall', content, context).pipe(
      concatMap((guarded) => {
        if (guarded.trip) event.deny(tripReason(guarded.trip));
        else if (guarded.content !== content)
          event.toolCall = { ...toolCall, input: guarded.content.input };
        return notifyReports(context, guarded.reports, toolCall.id);
      }),
    );
  }

  #checkResult(event: PostActingEvent, context: CallContext): Observable<never> {
    const { result } = event;
    const text = toolOutputText(result);
    return this.#run('toolResult', text, context, event.toolCall.name).pipe(
      concatMap((guarded) => {
        if (guarded.trip)
          event.result = {
            ...result,
            output: `[blocked] ${tripReason(guarded.trip)}`,
            isError: true,
          };
        else if (guarded.content !== text) event.result = { ...result, output: guarded.content };
        return notifyReports(context, guarded.reports, result.id);
      }),
    );
  }

  #run<C extends GuardrailContent>(
    stage: GuardrailStage,
    content: C,
    context: CallContext,
    toolName?: string,
  ): Observable<GuardedContent<C>> {
    const { callContext } = context.options;
    return runGuardrails(this.guardrails, stage, content, {
      agent: context.agent,
      signal: context.signal,
      ...(callContext !== undefined && { callContext }),
      ...(toolName !== undefined && { toolName }),
    });
  }
}

function tripReason(trip: GuardrailReport): string {
  return trip.reason ?? `blocked by guardrail "${trip.guardrail}"`;
}

function withText(msg: Msg, text: string): Msg {
  const content: ContentBlock[] = [
    { type: 'text', text },
    ...msg.content.filter((b) => b.type !== 'text'),
  ];
  return freezeMsg({ ...msg, content });
}
