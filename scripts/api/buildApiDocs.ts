import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Application, LogLevel } from 'typedoc';
import { packageEntries, workspacePackages } from './apiReport.js';

/**
 * Writes the API reference of every package entry point (from their TSDoc) to `docs/api/`
 * with TypeDoc (`npx -y pnpm@10.34.9 docs:api`). Exits non-zero on TypeDoc errors and
 * validation warnings (such as a `{@link}` to nothing). An export without a TSDoc summary is
 * caught by the test suite (`scripts/api/apiDocs.test.ts`).
 */
const root = resolve(dirname(), '../..');
const entries = workspacePackages(root).flatMap((dir) => packageEntries(dir));
const out = join(root, 'docs', 'api');

const app = await Application.bootstrapWithPlugins({
  entryPoints: entries.map((entry) => entry.file),
  tsconfig: join(root, 'tsconfig.json'),
  out,
  name: 'rxagent',
  readme: 'none',
  excludePrivate: true,
  excludeInternal: true,
  validation: { notExported: false, invalidLink: true, notDocumented: true },
  treatValidationWarningsAsErrors: true,
  logLevel: LogLevel.Warn,
});
const project = await app.convert();
if (!project) {
  console.error('docs:api: TypeDoc could not convert the packages.');
  process.exit(1);
}
// Modules are named after their import specifier (`@rxagent/core/testing`), not their path.
for (const module of project.children ?? []) {
  const file = module.sources?.[0]?.fullFileName;
  const entry = entries.find((candidate) => candidate.file === file);
  if (entry) module.name = entry.specifier;
}
app.validate(project);
await app.generateDocs(project, out);
const failed = app.logger.hasErrors() || app.logger.hasWarnings();
console.log(`docs:api: ${entries.length} entry points -> ${relative(root, out)}/index.html`);
process.exit(failed ? 1 : 0);

function dirname(): string {
  return fileURLToPath(new URL('.', import.meta.url));
}
