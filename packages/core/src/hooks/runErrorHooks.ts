import { catchError, concatMap, EMPTY, from, ignoreElements, type Observable } from 'rxjs';
import type { Hook } from './hook.js';
import type { ErrorEvent } from './hookEvent.js';
import { runHooks } from './runHooks.js';

/**
 * Runs `hooks` on an error event, in order, then completes without a value. Each hook is
 * isolated: one that throws or errors is skipped, so an error hook never replaces the error
 * that failed the call (the caller re-throws that one).
 */
export function runErrorHooks(hooks: readonly Hook[], event: ErrorEvent): Observable<never> {
  return from(hooks).pipe(
    concatMap((hook) => runHooks([hook], event).pipe(catchError(() => EMPTY))),
    ignoreElements(),
  );
}
