import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';

/** A reference in a tracked file to a document or path the repository does not contain. */
export interface DanglingReference {
  /** The citing file, relative to the repository root. */
  readonly file: string;
  readonly line: number;
  /** The reference as written. */
  readonly target: string;
}

/** Files read as prose: every line may cite something. */
const PROSE_FILE = /\.(md|json|txt|html)$/;
/** Files read as code: only their comments cite (string literals are data, e.g. fixtures). */
const CODE_FILE = /\.(ts|mts|js|mjs|cjs|css|ya?ml|sh)$|(^|\/)\.ci\/run$/;
/** Generated files whose paths are relative to something else than the file (lockfiles). */
const GENERATED = /(^|\/)pnpm-lock\.yaml$/;
/** A markdown link or image: `[text](target)`. */
const MARKDOWN_LINK = /\]\(([^)\s]+)\)/g;
/** A document named anywhere: a name ending in `.md`, with an optional relative or absolute path. */
const DOCUMENT_NAME = /(?<![\w/.@:-])((?:\.{1,2}\/|\/)*[\w-][\w./-]*\.md)(?![\w/])/g;
/** A relative path that climbs out of its directory into another one (`..` then a directory). */
const PARENT_PATH = /(?<![\w/.-])((?:\.\.\/)+[\w@.-]+\/[\w@./-]*)/g;

/**
 * Documents that the programs of the repository write at run time, so a file may name them
 * although no tracked file has that name.
 */
export const RUNTIME_DOCUMENTS: ReadonlyMap<string, string> = new Map([
  ['TASK.md', 'the task file examples/ralph-loop writes into its work directory'],
  ['latest.md', 'the bench report written to bench/results/ (gitignored)'],
]);

/**
 * Every citation in `files` (paths relative to `root`) of a document or path that is not in
 * the repository: relative markdown links, names ending in `.md` (a bare name is found when a
 * file of the repository has it, or it is one of {@link RUNTIME_DOCUMENTS}) and relative paths
 * that climb into another directory, which must exist relative to the citing file (a `.js`
 * path also matches its `.ts` source). Prose files are read whole, code files only in their
 * comments; URLs are not checked.
 */
export function danglingReferences(root: string, files: readonly string[]): DanglingReference[] {
  const tracked = new Set(files);
  const names = new Set([...files.map((file) => basename(file)), ...RUNTIME_DOCUMENTS.keys()]);
  const found: DanglingReference[] = [];
  for (const file of files) {
    const prose = PROSE_FILE.test(file);
    if ((!prose && !CODE_FILE.test(file)) || GENERATED.test(file)) continue;
    const lines = readFileSync(join(root, file), 'utf8').split('\n');
    lines.forEach((text, index) => {
      const line = withoutUrls(prose ? text : commentOf(text));
      const reported = new Set<string>();
      const check = (target: string, exists: boolean): void => {
        if (exists || reported.has(target)) return;
        reported.add(target);
        found.push({ file, line: index + 1, target });
      };
      if (file.endsWith('.md')) {
        for (const [, target = ''] of line.matchAll(MARKDOWN_LINK)) {
          if (/^[a-z]+:|^#/.test(target)) continue;
          check(target, pathExists(root, file, target.replace(/#.*$/, '')));
        }
      }
      for (const [, target = ''] of line.matchAll(DOCUMENT_NAME)) {
        const named = target.includes('/')
          ? pathExists(root, file, target) ||
            tracked.has(target.replace(/^\.\//, '')) ||
            RUNTIME_DOCUMENTS.has(basename(target))
          : names.has(target);
        check(target, named);
      }
      for (const [, target = ''] of line.matchAll(PARENT_PATH)) {
        check(target, pathExists(root, file, target.replace(/[.,;:]+$/, '')));
      }
    });
  }
  return found;
}

/** The comment part of a line of code: a whole `//`, `*`, `/*` or `#` line, or a trailing `//`. */
function commentOf(line: string): string {
  const trimmed = line.trimStart();
  if (/^(\/\/|\/\*|\*|#)/.test(trimmed)) return trimmed;
  const trailing = line.indexOf(' // ');
  if (trailing === -1) return '';
  // A `//` inside a string literal (an odd number of quotes before it) is no comment.
  const before = line.slice(0, trailing);
  const inString = ["'", '"', '`'].some((quote) => before.split(quote).length % 2 === 0);
  return inString ? '' : line.slice(trailing);
}

function withoutUrls(line: string): string {
  return line.replace(/[a-z][a-z+.-]*:\/\/[^\s)'"`>]*/gi, '');
}

/** Whether `target`, relative to the citing file, names a path inside the repository. */
function pathExists(root: string, file: string, target: string): boolean {
  const path = resolve(root, dirname(file), target);
  if (relative(root, path).startsWith('..')) return false;
  if (existsSync(path)) return true;
  // TypeScript sources are imported by their emitted name (`./x.js` for `./x.ts`).
  return /\.js$/.test(path) && existsSync(path.replace(/\.js$/, '.ts'));
}
