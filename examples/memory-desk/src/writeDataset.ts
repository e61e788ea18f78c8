// Writes data/long-memory.jsonl from the generator (the checked-in file is its output).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { longMemoryDataset } from './dataset.js';

const path = fileURLToPath(new URL('../data/long-memory.jsonl', import.meta.url));
const cases = longMemoryDataset();
writeFileSync(path, `${cases.map((c) => JSON.stringify(c)).join('\n')}\n`);
console.log(`wrote ${cases.length} cases to ${path}`);
