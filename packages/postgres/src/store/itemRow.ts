import { isJsonObject, type MemoryItem, SessionCorruptError } from '@rxagent/core';
import { decodeText } from '../encoding/textEncoding.js';

/** The columns of `memory_items` every read selects. */
export const ITEM_COLUMNS = 'namespace, key, value, version, updated_at';

/** One row as `pg` returns those columns. */
export interface ItemRow {
  readonly namespace: string[];
  readonly key: string;
  readonly value: string;
  readonly version: string;
  readonly updated_at: Date;
}

/**
 * The item a row holds; a row that cannot be read back (its value no JSON object, its
 * version not ≥ 1) throws `SessionCorruptError` naming the namespace and key. Internal.
 */
export function itemOf(row: ItemRow, table: string): MemoryItem {
  const key = decodeText(row.key);
  const namespace = row.namespace.map(decodeText);
  const where = `Memory item ${JSON.stringify(key)} in namespace ${JSON.stringify(namespace)} (PostgreSQL table ${table})`;
  const version = Number(row.version);
  let value: unknown;
  try {
    value = JSON.parse(row.value);
  } catch (error) {
    throw new SessionCorruptError(`${where} does not hold valid JSON.`, key, { cause: error });
  }
  if (!isJsonObject(value) || !Number.isInteger(version) || version < 1) {
    throw new SessionCorruptError(`${where} does not hold a JSON object and a version ≥ 1.`, key);
  }
  return { key, value, version, updatedAt: row.updated_at.toISOString(), namespace };
}
