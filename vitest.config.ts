import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * Tests run on the TypeScript sources: the `@rxagent/source` export condition maps every
 * workspace package to its `src/`, so no build is needed before testing. Vite 8 reads it
 * from `ssr.resolve.conditions` for Node tests.
 */
// Vite's `module` condition picks bundler-only builds that Node cannot load (e.g.
// @opentelemetry/api's extensionless ESM); Node itself never uses it, so neither do tests.
const nodeConditions = defaultServerConditions.filter((condition) => condition !== 'module');

export default defineConfig({
  ssr: { resolve: { conditions: ['@rxagent/source', ...nodeConditions] } },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'packages/*/test/**/*.test.ts',
      'examples/*/test/**/*.test.ts',
      'scripts/**/*.test.ts',
    ],
    environment: 'node',
    // Generous, for a busy 2-core machine: a test or hook that starts a child process or a
    // server sets its own larger limit; a cleanup hook's limit is larger than the timeouts of
    // what it stops (a redis-server gets 5 s to exit before it is killed).
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // In CI a JSON report is written too, so .ci/run can print the plain "N passed, N failed" line.
    reporters: process.env['CI'] ? ['default', 'json'] : ['default'],
    outputFile: { json: '.ci/test-results.json' },
  },
});
