import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { packageEntries, workspacePackages } from '../api/apiReport.js';
import { addExports, exportedNames, type ImportSource } from './exportIndex.js';
import { markdownSnippets, type Snippet, tsdocSnippets } from './extractSnippets.js';
import { snippetModule } from './snippetModule.js';
import { walkFiles } from './walkFiles.js';

/** A snippet written as a module file of the docs package. */
export interface WrittenSnippet {
  readonly snippet: Snippet;
  /** The module file's absolute path. */
  readonly path: string;
  /** Line `n` of the snippet's code is line `n + codeOffset` of the module. */
  readonly codeOffset: number;
}

/** The directory (gitignored, inside the docs package) the snippet modules are written to. */
export function snippetDir(root: string): string {
  return join(root, 'docs', '.snippets');
}

/**
 * Every TypeScript snippet of the repository: the ts blocks of the markdown in docs/, the
 * root README and the READMEs of packages/* and examples/*, and the `@example`s of the
 * packages' sources (tests left out).
 */
export function collectSnippets(root: string): Snippet[] {
  const markdown = [
    'README.md',
    ...walkFiles(root, 'docs', (path) => path.endsWith('.md')),
    ...['packages', 'examples'].flatMap((dir) =>
      readdirSync(join(root, dir))
        .map((name) => `${dir}/${name}/README.md`)
        .filter((path) => existsSync(join(root, path))),
    ),
  ];
  const sources = workspacePackages(root).flatMap((dir) =>
    walkFiles(root, relative(root, join(dir, 'src')), (path) => /(?<!\.test)\.ts$/.test(path)),
  );
  return [
    ...markdown.flatMap((file) => markdownSnippets(file, readFileSync(join(root, file), 'utf8'))),
    ...sources.flatMap((file) => tsdocSnippets(file, readFileSync(join(root, file), 'utf8'))),
  ];
}

/**
 * Where fragments import names from: every entry point of every package (in workspace
 * order), RxJS, `z` from zod, a few platform names, then the docs' snippet context.
 */
export async function fragmentImports(root: string): Promise<Map<string, ImportSource>> {
  const index = new Map<string, ImportSource>();
  for (const dir of workspacePackages(root)) {
    for (const entry of packageEntries(dir))
      addExports(index, entry.specifier, exportedNames(entry.file));
  }
  const rxjs = (await import('rxjs')) as Record<string, unknown>;
  addExports(
    index,
    'rxjs',
    Object.keys(rxjs).filter((name) => name !== 'default'),
  );
  addExports(index, 'zod', ['z']);
  addExports(index, 'node:http', ['createServer']);
  addExports(index, '@ag-ui/encoder', ['EventEncoder']);
  addExports(index, 'vitest', ['expect']);
  addExports(index, '../snippetContext.js', exportedNames(join(root, 'docs', 'snippetContext.ts')));
  return index;
}

/** Writes each snippet as a module of the docs package (the directory is emptied first). */
export function writeSnippets(
  root: string,
  snippets: readonly Snippet[],
  index: ReadonlyMap<string, ImportSource>,
): WrittenSnippet[] {
  const dir = snippetDir(root);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return snippets.map((snippet) => {
    const module = snippetModule(snippet, index);
    const name = `${snippet.file.replace(/[^\w]+/g, '_')}_L${snippet.line}.ts`;
    const path = join(dir, name);
    writeFileSync(path, module.text);
    return { snippet, path, codeOffset: module.codeOffset };
  });
}

/**
 * Type-checks the written snippets in one program, with the workspace's compiler options
 * (so `@rxagent/*` resolve to their sources through the `@rxagent/source` condition), and
 * returns one `file:line:column message` per error, at the snippet's place in its source.
 */
export function typeCheckSnippets(root: string, written: readonly WrittenSnippet[]): string[] {
  const configPath = join(root, 'tsconfig.base.json');
  const config = ts.readConfigFile(configPath, (path) => ts.sys.readFile(path));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, dirname(configPath));
  const program = ts.createProgram(
    written.map((w) => w.path),
    { ...parsed.options, noEmit: true, sourceMap: false, declaration: false },
  );
  const errors: string[] = [];
  for (const w of written) {
    const source = program.getSourceFile(w.path);
    if (!source) throw new Error(`Snippet module ${w.path} is not in the program.`);
    const diagnostics = [
      ...program.getSyntacticDiagnostics(source),
      ...program.getSemanticDiagnostics(source),
    ];
    for (const diagnostic of diagnostics) {
      const start = diagnostic.start ?? 0;
      const { line, character } = source.getLineAndCharacterOfPosition(start);
      const sourceLine = w.snippet.line + line - w.codeOffset;
      const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
      errors.push(
        `${w.snippet.file}:${sourceLine}:${character + 1} TS${diagnostic.code}: ${message}`,
      );
    }
  }
  return errors;
}
