// Runs the recall evaluation on a SQLite file in a temporary directory and prints the accuracy.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '@rxagent/sqlite';
import { runMemoryEval } from './memoryEval.js';

const dir = mkdtempSync(join(tmpdir(), 'memory-desk-'));
const store = new SqliteStore({ path: join(dir, 'memory.db') });
try {
  const report = await runMemoryEval(store);
  console.log(
    `${report.cases.length} questions, recall accuracy ${(report.passRate * 100).toFixed(1)} %`,
  );
} finally {
  store.close();
  rmSync(dir, { recursive: true, force: true });
}
