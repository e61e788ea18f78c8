import { firstValueFrom, isObservable, Observable } from 'rxjs';
import type { JsonObject } from '../json.js';
import type {
  Guardrail,
  GuardrailContent,
  GuardrailContext,
  GuardrailStage,
  GuardrailVerdict,
} from './guardrail.js';

/** One guardrail's verdict on one piece of content, as reported in the `guardrail` hook event. */
export interface GuardrailReport {
  readonly guardrail: string;
  readonly stage: GuardrailStage;
  readonly tripped: boolean;
  /** Why it tripped (or replaced), when it said; for a failed or late check, what happened. */
  readonly reason?: string;
  /** Whether it replaced the content. */
  readonly replaced: boolean;
}

/** What the guardrails of one stage made of a piece of content. */
export interface GuardedContent<C extends GuardrailContent> {
  /** The content after every replacement. */
  readonly content: C;
  /** The blocking verdict, when one tripped without a replacement (later guardrails did not run). */
  readonly trip?: GuardrailReport;
  /** Every verdict given, in order. */
  readonly reports: readonly GuardrailReport[];
}

/** `GuardrailContext` without what `runGuardrails` fills in itself. */
export type GuardrailRunContext = Omit<GuardrailContext, 'stage' | 'signal'> & {
  readonly signal: AbortSignal;
};

/**
 * Runs the guardrails of `stage` on `content`, one after another in the order given, each
 * seeing the content as the previous one left it; stops at the first that trips without a
 * replacement. Fails closed: a check that throws, rejects, errors, completes without a
 * verdict, answers something that is not a verdict, or takes longer than its `timeoutMs`
 * counts as tripped, with a reason saying so. Cold; emits one `GuardedContent` and completes;
 * errors only when the call's `signal` aborts (with its reason). Unsubscribing aborts the
 * running check's signal.
 */
export function runGuardrails<C extends GuardrailContent>(
  guardrails: readonly Guardrail[],
  stage: GuardrailStage,
  content: C,
  context: GuardrailRunContext,
): Observable<GuardedContent<C>> {
  return new Observable<GuardedContent<C>>((subscriber) => {
    const stop = new AbortController();
    const { signal } = context;
    const onAbort = (): void => stop.abort(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    runAll(guardrails, stage, content, context, stop.signal).then(
      (guarded) => {
        subscriber.next(guarded);
        subscriber.complete();
      },
      (error: unknown) => subscriber.error(error),
    );
    return () => {
      signal.removeEventListener('abort', onAbort);
      stop.abort();
    };
  });
}

async function runAll<C extends GuardrailContent>(
  guardrails: readonly Guardrail[],
  stage: GuardrailStage,
  content: C,
  context: GuardrailRunContext,
  signal: AbortSignal,
): Promise<GuardedContent<C>> {
  const reports: GuardrailReport[] = [];
  let current = content;
  for (const guard of guardrails) {
    if (!guard.stages.includes(stage)) continue;
    const checked = await checkOne(guard, stage, current, context, signal);
    signal.throwIfAborted();
    const verdict =
      checked.kind === 'verdict' ? withValidReplacement(guard, checked, current) : checked;
    const replacement =
      verdict.kind === 'verdict' ? replacementOf(verdict.value, current) : undefined;
    const reason = verdict.kind === 'verdict' ? verdict.value.reason : verdict.reason;
    const tripped = verdict.kind === 'failed' || verdict.value.tripped;
    const report: GuardrailReport = {
      guardrail: guard.name,
      stage,
      tripped: tripped && replacement === undefined,
      ...(reason !== undefined && { reason }),
      replaced: replacement !== undefined,
    };
    reports.push(report);
    if (replacement !== undefined) current = replacement;
    else if (tripped) return { content: current, trip: report, reports };
  }
  return { content: current, reports };
}

type Checked =
  | { readonly kind: 'verdict'; readonly value: GuardrailVerdict }
  | { readonly kind: 'failed'; readonly reason: string };

/** One check, bounded by the guardrail's `timeoutMs`; a sync verdict needs no timer. */
async function checkOne(
  guard: Guardrail,
  stage: GuardrailStage,
  content: GuardrailContent,
  context: GuardrailRunContext,
  callSignal: AbortSignal,
): Promise<Checked> {
  const own = new AbortController();
  const onCallAbort = (): void => own.abort(callSignal.reason);
  callSignal.addEventListener('abort', onCallAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const result = guard.check(content, { ...context, stage, signal: own.signal });
    if (!isObservable(result) && !isThenable(result)) return asVerdict(guard, result);
    const answer = isObservable(result) ? firstValueFrom(result) : result;
    const late = new Promise<Checked>((resolve) => {
      timer = setTimeout(() => {
        own.abort(new Error('timed out'));
        resolve({
          kind: 'failed',
          reason: `guardrail "${guard.name}" gave no verdict within ${guard.timeoutMs} ms`,
        });
      }, guard.timeoutMs);
    });
    const aborted = new Promise<never>((_, reject) => {
      if (callSignal.aborted) reject(callSignal.reason);
      callSignal.addEventListener('abort', () => reject(callSignal.reason), { once: true });
    });
    return await Promise.race([answer.then((value) => asVerdict(guard, value)), late, aborted]);
  } catch (error) {
    callSignal.throwIfAborted();
    return { kind: 'failed', reason: `guardrail "${guard.name}" failed: ${messageOf(error)}` };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    callSignal.removeEventListener('abort', onCallAbort);
  }
}

function asVerdict(guard: Guardrail, value: unknown): Checked {
  const verdict = value as Partial<GuardrailVerdict> | null | undefined;
  if (typeof verdict !== 'object' || verdict === null || typeof verdict.tripped !== 'boolean')
    return {
      kind: 'failed',
      reason: `guardrail "${guard.name}" answered ${describe(value)}, not a verdict { tripped, reason?, replacement? }`,
    };
  return { kind: 'verdict', value: verdict as GuardrailVerdict };
}

/** A verdict whose replacement has not the content's shape fails: it would pass unchecked content. */
function withValidReplacement(
  guard: Guardrail,
  checked: Extract<Checked, { kind: 'verdict' }>,
  content: GuardrailContent,
): Checked {
  if (
    checked.value.replacement === undefined ||
    replacementOf(checked.value, content) !== undefined
  )
    return checked;
  const shape = typeof content === 'string' ? 'a string' : '{ input: { ... } }';
  return {
    kind: 'failed',
    reason: `guardrail "${guard.name}" gave a replacement that is not ${shape}`,
  };
}

/** The verdict's replacement when it has the content's shape (text for text, a call for a call). */
function replacementOf<C extends GuardrailContent>(
  verdict: GuardrailVerdict,
  content: C,
): C | undefined {
  const { replacement } = verdict;
  if (replacement === undefined) return undefined;
  if (typeof content === 'string')
    return typeof replacement === 'string' ? (replacement as C) : undefined;
  if (typeof replacement !== 'object' || replacement === null) return undefined;
  const input = (replacement as { input?: unknown }).input;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  return { name: content.name, input: input as JsonObject } as C;
}

function isThenable(value: unknown): value is Promise<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
