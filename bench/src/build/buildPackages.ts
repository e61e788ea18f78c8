/**
 * Transpiles @rxagent/core, @rxagent/react-agent, @rxagent/otel, @rxagent/anthropic, @rxagent/eval, @rxagent/redis and @rxagent/restate from `src/` to plain JavaScript under
 * Transpiles @rxagent/core, @rxagent/react-agent, @rxagent/otel, @rxagent/anthropic, @rxagent/eval, @rxagent/redis and @rxagent/postgres from `src/` to plain JavaScript under
 * `bench/results/.build/node_modules/@rxagent/*`, the way `tsc` builds them for users
 * (no type check: the workspace's `tsc` does that). The bench then runs the code users run:
 * tsx, which runs the sources, compiles with esbuild's `keepNames`, and that wraps every
 * named closure in a `__name()` call that costs several µs per turn.
 * Next to the packages it links their dependencies, so a plain `node` resolves
 * `@rxagent/react-agent` there without any loader (the import-time suite relies on it).
 * `node --import tsx src/build/buildPackages.ts [sourceRoot] [outDir]` builds a snapshot of
 * the sources elsewhere, for before/after comparisons (tools/abCompare.ts).
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
/** Where the built packages go. */
export const BUILD_DIR = join(repo, 'bench/results/.build');

const PACKAGES = [
  {
    dir: 'packages/core',
    name: '@rxagent/core',
    exports: { '.': './index.js', './testing': './testing/index.js' },
  },
  { dir: 'packages/react-agent', name: '@rxagent/react-agent', exports: { '.': './index.js' } },
  { dir: 'packages/otel', name: '@rxagent/otel', exports: { '.': './index.js' } },
  { dir: 'packages/eval', name: '@rxagent/eval', exports: { '.': './index.js' } },
  {
    dir: 'packages/anthropic',
    name: '@rxagent/anthropic',
    exports: { '.': './index.js', './testing': './testing/index.js' },
  },
  {
    dir: 'packages/redis',
    name: '@rxagent/redis',
    exports: { '.': './index.js', './testing': './testing/index.js' },
  },
  {
    dir: 'packages/postgres',
    name: '@rxagent/postgres',
    exports: { '.': './index.js', './testing': './testing/index.js' },
  },
  { dir: 'packages/sqlite', name: '@rxagent/sqlite', exports: { '.': './index.js' } },
  {
    dir: 'packages/restate',
    name: '@rxagent/restate',
    exports: { '.': './index.js', './testing': './testing/index.js' },
  },
  { dir: 'packages/memory', name: '@rxagent/memory', exports: { '.': './index.js' } },
] as const;

const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2023,
  module: ts.ModuleKind.ESNext,
  verbatimModuleSyntax: true,
  useDefineForClassFields: true,
  isolatedModules: true,
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter(
      (entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'),
    )
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Where to read the sources and write the build (the defaults build this checkout for the bench). */
export interface BuildOptions {
  /** A directory holding `packages/core/src` and `packages/react-agent/src` (e.g. a snapshot). */
  readonly sourceRoot?: string;
  readonly outDir?: string;
}

/** Builds the packages and links their dependencies; returns how many files were written. */
export function buildPackages(options: BuildOptions = {}): number {
  const sourceRoot = options.sourceRoot ?? repo;
  const outDir = options.outDir ?? BUILD_DIR;
  rmSync(outDir, { recursive: true, force: true });
  const modules = join(outDir, 'node_modules');
  let files = 0;
  const linked = new Set<string>();
  for (const pkg of PACKAGES) {
    const src = join(sourceRoot, pkg.dir, 'src');
    // A snapshot from before a package existed (tools/abCompare.ts) simply lacks it.
    if (!existsSync(src)) continue;
    const out = join(modules, pkg.name);
    for (const file of sourceFiles(src)) {
      const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), {
        compilerOptions: OPTIONS,
        fileName: file,
      });
      const target = join(out, relative(src, file)).replace(/\.ts$/, '.js');
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, outputText);
      files++;
    }
    writeFileSync(
      join(out, 'package.json'),
      JSON.stringify(
        { name: pkg.name, type: 'module', sideEffects: false, exports: pkg.exports },
        null,
        2,
      ),
    );
    const manifest = JSON.parse(readFileSync(join(repo, pkg.dir, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
    };
    const deps = [
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}),
    ];
    for (const dep of deps) {
      if (dep.startsWith('@rxagent/') || linked.has(dep)) continue;
      const link = join(modules, dep);
      mkdirSync(dirname(link), { recursive: true });
      symlinkSync(realpathSync(join(repo, pkg.dir, 'node_modules', dep)), link, 'dir');
      linked.add(dep);
    }
  }
  return files;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [sourceRoot, outDir] = process.argv.slice(2);
  const t0 = performance.now();
  const files = buildPackages({ ...(sourceRoot && { sourceRoot }), ...(outDir && { outDir }) });
  const where = relative(repo, outDir ?? BUILD_DIR);
  process.stdout.write(
    `built ${files} files into ${where} in ${(performance.now() - t0).toFixed(0)} ms\n`,
  );
}
