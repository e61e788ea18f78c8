import { concatMap, defer, endWith, from, ignoreElements, type Observable } from 'rxjs';
import { normalizeInput } from '../internal/normalizeInput.js';
import type { Msg } from '../message/msg.js';

/**
 * `observe(input)` of an agent: `doObserve` for each Msg, one after another. Cold; emits one
 * `undefined` when all were observed, then completes; `where` names the caller in the error
 * for input that is not a Msg.
 */
export function observeEach(
  input: Msg | readonly Msg[],
  where: string,
  doObserve: (msg: Msg) => Observable<void>,
): Observable<void> {
  return defer(() => from(normalizeInput(input, where))).pipe(
    concatMap(doObserve),
    ignoreElements(),
    endWith(undefined),
  );
}
