import { createRequire } from 'node:module';
import type { SqliteDriverName } from '../src/index.js';

const require = createRequire(import.meta.url);

/** The drivers this runtime can run: node:sqlite (Node ≥ 22.13), better-sqlite3 (when built for it). */
export function availableDrivers(): SqliteDriverName[] {
  const drivers: SqliteDriverName[] = [];
  const get = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  if (get?.call(process, 'node:sqlite') !== undefined) drivers.push('node:sqlite');
  try {
    const Database = require('better-sqlite3') as new (path: string) => { close(): void };
    new Database(':memory:').close();
    drivers.push('better-sqlite3');
  } catch {
    // Not installed, or built for another Node ABI.
  }
  return drivers;
}
