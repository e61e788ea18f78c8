import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The getting-started guide, whose TypeScript setup the consumer project follows. */
export const GUIDE = 'docs/getting-started.md';
const GUIDE_SECTION = '### TypeScript setup';

/** The `tsconfig.json` the guide shows (its section's first ```` ```json ```` block), parsed. */
export interface GuideTsconfig {
  readonly compilerOptions: Record<string, unknown>;
  readonly include: readonly string[];
}

/** Reads the guide's `tsconfig.json` from the guide at `root`, so the test checks what users copy. */
export function guideTsconfig(root: string): GuideTsconfig {
  const lines = readFileSync(join(root, GUIDE), 'utf8').split('\n');
  const section = lines.indexOf(GUIDE_SECTION);
  const open = lines.findIndex((line, at) => at > section && line.trim() === '```json');
  const close = lines.findIndex((line, at) => at > open && line.trim() === '```');
  if (section < 0 || open < 0 || close < 0)
    throw new Error(`${GUIDE} has no \`\`\`json block under "${GUIDE_SECTION}".`);
  const config = JSON.parse(lines.slice(open + 1, close).join('\n')) as Partial<GuideTsconfig>;
  if (typeof config.compilerOptions !== 'object' || !Array.isArray(config.include))
    throw new Error(`${GUIDE}: the tsconfig.json block needs compilerOptions and include.`);
  return config as GuideTsconfig;
}

/**
 * Writes an npm project that uses the packages the way an application would: ESM, the
 * guide's `tsconfig.json` (`module: nodenext`, no custom export conditions, so the tarballs'
 * `dist` is what resolves) with a few stricter options on top, and `main` as its only source,
 * under the guide's `include` directory; `tsc` compiles it to `dist/main.js`.
 */
export function writeConsumerProject(dir: string, main: string, guide: GuideTsconfig): void {
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'rxagent-consumer', private: true, type: 'module' }, null, 2)}\n`,
  );
  const compilerOptions = {
    ...guide.compilerOptions,
    // Stricter than the guide, so rxagent's declarations hold under them too.
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    verbatimModuleSyntax: true,
  };
  writeFileSync(
    join(dir, 'tsconfig.json'),
    `${JSON.stringify({ compilerOptions, include: guide.include }, null, 2)}\n`,
  );
  const sources = join(dir, guide.include[0] ?? 'src');
  mkdirSync(sources, { recursive: true });
  writeFileSync(join(sources, 'main.ts'), main);
}
