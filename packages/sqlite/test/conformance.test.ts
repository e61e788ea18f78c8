import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryStoreConformance, sessionConformance } from '@rxagent/core/testing';
import { afterAll, describe } from 'vitest';
import { SqliteSession, SqliteStore } from '../src/index.js';
import { availableDrivers } from './drivers.js';

const root = mkdtempSync(join(tmpdir(), 'rxagent-sqlite-conformance-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const file = () => join(root, `db-${n++}.sqlite`);

for (const driver of availableDrivers()) {
  describe(`on ${driver}`, () => {
    sessionConformance(
      'SqliteSession (file, WAL)',
      () => new SqliteSession({ path: file(), driver }),
    );
    sessionConformance('SqliteSession (:memory:)', () => new SqliteSession({ driver }));
    memoryStoreConformance(
      'SqliteStore (file, WAL)',
      ({ embedder }) => new SqliteStore({ path: file(), driver, ...(embedder && { embedder }) }),
    );
    memoryStoreConformance(
      'SqliteStore (:memory:)',
      ({ embedder }) => new SqliteStore({ driver, ...(embedder && { embedder }) }),
    );
  });
}
