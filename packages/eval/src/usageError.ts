/**
 * A problem with how `rxagent-eval` was called (its options, its eval module or `--out`):
 * the command prints the message on one line, without a stack, and exits 2, so a CI job tells
 * a broken invocation from an evaluation below its threshold (exit 1).
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
