// A module resolve hook (see register.mjs): @rxagent/* specifiers go to the built packages,
// bench/results/.build by default, or the build named by RXAGENT_BENCH_BUILD (a before/after
// comparison of whole suites; build one with buildPackages.ts <sourceRoot> <outDir>).
import { pathToFileURL } from 'node:url';

const root = process.env.RXAGENT_BENCH_BUILD
  ? pathToFileURL(`${process.env.RXAGENT_BENCH_BUILD.replace(/\/$/, '')}/`)
  : new URL('../../results/.build/', import.meta.url);
const modules = new URL('node_modules/', root);
const BUILT = {
  '@rxagent/core': new URL('@rxagent/core/index.js', modules).href,
  '@rxagent/core/testing': new URL('@rxagent/core/testing/index.js', modules).href,
  '@rxagent/react-agent': new URL('@rxagent/react-agent/index.js', modules).href,
  '@rxagent/otel': new URL('@rxagent/otel/index.js', modules).href,
  '@rxagent/anthropic': new URL('@rxagent/anthropic/index.js', modules).href,
  '@rxagent/anthropic/testing': new URL('@rxagent/anthropic/testing/index.js', modules).href,
  '@rxagent/eval': new URL('@rxagent/eval/index.js', modules).href,
  '@rxagent/redis': new URL('@rxagent/redis/index.js', modules).href,
  '@rxagent/redis/testing': new URL('@rxagent/redis/testing/index.js', modules).href,
  '@rxagent/postgres': new URL('@rxagent/postgres/index.js', modules).href,
  '@rxagent/postgres/testing': new URL('@rxagent/postgres/testing/index.js', modules).href,
  '@rxagent/sqlite': new URL('@rxagent/sqlite/index.js', modules).href,
  '@rxagent/restate': new URL('@rxagent/restate/index.js', modules).href,
  '@rxagent/restate/testing': new URL('@rxagent/restate/testing/index.js', modules).href,
  '@rxagent/memory': new URL('@rxagent/memory/index.js', modules).href,
};

export async function resolve(specifier, context, nextResolve) {
  const url = BUILT[specifier];
  return url ? { url, shortCircuit: true, format: 'module' } : nextResolve(specifier, context);
}
