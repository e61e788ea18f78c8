import {
  type CallContext,
  type ContentBlock,
  freezeMsg,
  type Guardrail,
  type GuardrailReport,
  type Msg,
  type ReasoningChunkEvent,
  runGuardrails,
  textOf,
  toolUses,
} from '@rxagent/core';
import { concat, concatMap, defer, EMPTY, ignoreElements, type Observable, of } from 'rxjs';
import { notifyReports } from './guardrailEvents.js';

/** What the output guardrails made of a reply: the reply to go on with, or the blocking verdict. */
export type ReviewedReply =
  | { readonly kind: 'passed'; readonly reply: Msg }
  | { readonly kind: 'refused'; readonly trip: GuardrailReport };

/**
 * Holds a call's streamed replies back until its output guardrails passed them: the
 * `reasoningChunk` events of a model request are kept (`hold`) instead of reaching hooks and
 * `stream()`, and `review` runs the guardrails on the complete reply before its
 * postReasoning hooks and before any of its tools start. A passed reply's chunks are then
 * released in order; a replaced one is announced by one chunk event per part of the
 * replacement (the original text never leaves); a refused one's are dropped.
 */
export class OutputGuard {
  #held: ReasoningChunkEvent[] = [];

  constructor(
    private readonly guardrails: readonly Guardrail[],
    private readonly context: CallContext,
  ) {}

  /** Keeps a chunk event until the reply's verdict (what `notify` would do, later). */
  readonly hold = (event: ReasoningChunkEvent): Observable<never> => {
    this.#held.push(event);
    return EMPTY;
  };

  /** Runs the output guardrails on `reply`; emits one `ReviewedReply`, after the chunk events it releases. */
  review(reply: Msg): Observable<ReviewedReply> {
    return defer(() => {
      const held = this.#held;
      this.#held = [];
      const { context } = this;
      const toolCalls = toolUses(reply).map(({ name, input }) => ({ name, input }));
      return runGuardrails(this.guardrails, 'output', textOf(reply), {
        agent: context.agent,
        signal: context.signal,
        toolCalls,
        ...(context.options.callContext !== undefined && {
          callContext: context.options.callContext,
        }),
      }).pipe(
        concatMap((guarded) => {
          const reported = notifyReports(context, guarded.reports);
          if (guarded.trip)
            return concat(reported, of<ReviewedReply>({ kind: 'refused', trip: guarded.trip }));
          const replaced = guarded.reports.some((r) => r.replaced);
          const final = replaced ? withText(reply, guarded.content) : reply;
          const chunks = replaced ? this.#announce(final) : held;
          return concat(
            reported,
            this.#release(chunks),
            of<ReviewedReply>({ kind: 'passed', reply: final }),
          );
        }),
      );
    });
  }

  /** Drops what is held (a cut stream's chunks never reach anyone). */
  drop(): void {
    this.#held = [];
  }

  #release(events: readonly ReasoningChunkEvent[]): Observable<never> {
    if (events.length === 0) return EMPTY;
    const { context } = this;
    return of(...events).pipe(
      concatMap((event) => context.notify(event)),
      ignoreElements(),
    );
  }

  /** The chunk events of a reply that arrived whole: its text, then each tool call. */
  #announce(reply: Msg): ReasoningChunkEvent[] {
    const { agent } = this.context;
    const text = textOf(reply);
    const events: ReasoningChunkEvent[] = [];
    if (text !== '')
      events.push({ type: 'reasoningChunk', agent, delta: { text }, accumulated: reply });
    for (const [index, call] of toolUses(reply).entries()) {
      const toolCall = {
        index,
        id: call.id,
        name: call.name,
        arguments: JSON.stringify(call.input),
      };
      events.push({ type: 'reasoningChunk', agent, delta: { toolCall }, accumulated: reply });
    }
    return events;
  }
}

/** `reply` with its text blocks replaced by one holding `text`, where the first one was. */
function withText(reply: Msg, text: string): Msg {
  const content: ContentBlock[] = [];
  let placed = false;
  for (const block of reply.content) {
    if (block.type !== 'text') content.push(block);
    else if (!placed) {
      content.push({ type: 'text', text });
      placed = true;
    }
  }
  if (!placed) content.unshift({ type: 'text', text });
  return freezeMsg({ ...reply, content });
}
