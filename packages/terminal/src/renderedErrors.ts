/** Errors a renderer has printed (an `error` event's, or the one a rendered stream ended with). */
const rendered = new WeakSet<object>();

/** Records that `error` was printed, so a program's last-resort handler need not repeat it. */
export function markErrorRendered(error: unknown): void {
  if (typeof error === 'object' && error !== null) rendered.add(error);
}

/**
 * Whether a renderer (`renderEvents`, `renderHub`) already printed `error`: the `✗` line of
 * an `error` event or of a rendered stream that failed with it. A program's top-level catch
 * uses it to print the error once (e.g. only a non-zero exit and the elapsed time), rather
 * than the message again under the renderer's line. Always false for a primitive thrown value.
 *
 * @example
 * ```ts
 * try {
 *   await lastValueFrom(agent.stream(userMsg(question)).pipe(renderEvents()));
 * } catch (error) {
 *   if (!isErrorRendered(error)) console.error(error);
 *   process.exitCode = 1;
 * }
 * ```
 */
export function isErrorRendered(error: unknown): boolean {
  return typeof error === 'object' && error !== null && rendered.has(error);
}
