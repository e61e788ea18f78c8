import { InvalidArgumentError } from '@rxagent/core';

// A table name is spliced into SQL (identifiers cannot be bound), so only plain ones pass.
const PLAIN = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** Throws `InvalidArgumentError` unless `name` is a plain SQL identifier (letters, digits, `_`). */
export function checkTableName(name: unknown, owner: string): string {
  if (typeof name !== 'string' || !PLAIN.test(name)) {
    throw new InvalidArgumentError(
      `new ${owner}(options): table must be a plain SQL name (a letter or _, then letters, digits or _; at most 63) (got ${JSON.stringify(name)}).`,
    );
  }
  return name;
}
