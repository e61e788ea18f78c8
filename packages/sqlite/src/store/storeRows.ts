import { isJsonObject, type MemoryItem, SessionCorruptError } from '@rxagent/core';
import { namespaceOf } from './namespacePath.js';

/** The item a row holds; throws `SessionCorruptError` naming the key when it cannot be read. */
export function itemOf(row: Record<string, unknown>, store: string): MemoryItem {
  const key = String(row['key']);
  let value: unknown;
  try {
    value = JSON.parse(String(row['value']));
  } catch (error) {
    value = undefined;
    if (!(error instanceof SyntaxError)) throw error;
  }
  const version = Number(row['version']);
  if (!isJsonObject(value) || !Number.isInteger(version) || version < 1) {
    throw new SessionCorruptError(
      `${store}: the item ${JSON.stringify(key)} cannot be read back (its value is not a JSON object, or its version is invalid). Delete it, or restore the database from a backup.`,
      key,
    );
  }
  return {
    key,
    value,
    version,
    updatedAt: String(row['updated_at']),
    namespace: namespaceOf(String(row['ns'])),
  };
}

/** A stored float32 blob as numbers (copied: a driver's buffer may be unaligned or reused). */
export function vectorOf(blob: Uint8Array): Float32Array {
  return new Float32Array(new Uint8Array(blob).buffer);
}
