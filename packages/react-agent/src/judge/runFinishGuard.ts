import { type AgentBase, createMsg, type Msg } from '@rxagent/core';
import { catchError, defer, map, type Observable, of, throwError } from 'rxjs';
import type { ReActCallState } from '../loop/reactCallState.js';
import type { FinalAnswerDecision } from '../loop/step.js';
import type { FinishGuard, FinishVerdict } from './finishGuard.js';

/**
 * Asks `guard` about a draft final answer and turns its verdict into the agent's decision:
 * a pass accepts the draft; a rejection drops it and stores the guard's feedback as a
 * `[Judge feedback]` user message named `system`. A guard error passes (fail-open), unless
 * the call was aborted. The verdict travels in the decision's `details`.
 */
export function runFinishGuard(
  guard: FinishGuard,
  agent: AgentBase,
  draft: Msg,
  state: ReActCallState,
): Observable<FinalAnswerDecision> {
  return defer(() =>
    guard.check({
      agent,
      draft,
      messages: state.transcript.messages(),
      request: state.transcript.task(),
      rejections: state.guardRejections,
      signal: state.context.signal,
      // Reported apart (`metadata.judgeUsage`), not merged into the agent's own usage.
      addUsage: (usage) => state.stats.addJudgeUsage(usage),
    }),
  ).pipe(
    catchError((error: unknown) => failOpen(error, state)),
    map((verdict) => decide(verdict, draft, state)),
  );
}

function failOpen(error: unknown, state: ReActCallState): Observable<FinishVerdict> {
  if (state.context.signal.aborted) return throwError(() => error);
  const message = error instanceof Error ? error.message : String(error);
  return of({ pass: true, details: { verdict: 'guard_error', error: message } });
}

function decide(verdict: FinishVerdict, draft: Msg, state: ReActCallState): FinalAnswerDecision {
  const details = { ...verdict.details, pass: verdict.pass, rejections: state.guardRejections };
  if (verdict.pass) return { accept: true, reply: draft, details };
  state.guardRejections++;
  return {
    accept: false,
    keepDraft: false,
    feedback: [judgeFeedbackMsg(verdict.feedback)],
    details,
  };
}

/** Framework feedback: a user-role message named `system`, flagged in metadata. */
function judgeFeedbackMsg(feedback: string): Msg {
  return createMsg({
    name: 'system',
    role: 'user',
    content: `[Judge feedback] ${feedback}`,
    metadata: { systemFeedback: true, feedback: 'judge' },
  });
}
