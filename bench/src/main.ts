import { configFrom } from './lib/config.js';
import type { SuiteResult } from './lib/result.js';
import { renderSuite } from './lib/table.js';
import { ServerProcess } from './server/serverProcess.js';
import { httpConcurrent } from './suites/httpConcurrent.js';
import { httpSequential } from './suites/httpSequential.js';

const config = configFrom(process.argv.slice(2));
const server = await ServerProcess.start();
const results: SuiteResult[] = [];
try {
  for (const suite of [httpSequential, httpConcurrent]) {
    const result = await suite(server, config);
    results.push(result);
    console.log(renderSuite(result));
  }
} finally {
  await server.close();
}
