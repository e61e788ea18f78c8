import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { currentApiReports } from './apiReports.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const reports = currentApiReports(root);

describe('public API reports', () => {
  it('covers every workspace package with an entry point', () => {
    expect(reports.size).toBeGreaterThanOrEqual(4);
  });

  for (const [path, current] of reports) {
    const name = relative(root, path);
    it(`${name} matches the package's exports (run \`npx -y pnpm@10.34.9 api:update\` after an intended API change)`, () => {
      expect(existsSync(path), `${name} is missing`).toBe(true);
      expect(current).toBe(readFileSync(path, 'utf8'));
    });
  }
});
