import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { sessionConformance } from '../testing/conformance/sessionConformance.js';
import { InMemorySession } from './inMemorySession.js';
import { JsonFileSession } from './jsonFileSession.js';

sessionConformance('InMemorySession', () => new InMemorySession());

const root = mkdtempSync(join(tmpdir(), 'rxagent-conformance-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
// A key is a file name there (at most 250 bytes once encoded); each save is flushed to disk,
// so the long conversation is 300 turns (~900 synced writes) to keep the test short.
sessionConformance('JsonFileSession', () => new JsonFileSession(join(root, String(n++))), {
  maxKeyLength: 80,
  turns: 300,
});
