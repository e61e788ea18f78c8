import { writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { currentApiReports } from './apiReports.js';

/** Rewrites every package's api-report.txt from its current exports (`pnpm api:update`). */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
for (const [path, text] of currentApiReports(root)) {
  writeFileSync(path, text);
  console.log(`wrote ${relative(root, path)}`);
}
