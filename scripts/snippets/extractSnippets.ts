/** A TypeScript code block of a markdown file or of a TSDoc `@example`. */
export interface Snippet {
  /** The file it was found in, relative to the repository root. */
  readonly file: string;
  /** The line, in that file, of the block's first line of code (1-based). */
  readonly line: number;
  readonly code: string;
  /** Whether the block is also executed (its fence says ```` ```ts run ````). */
  readonly run: boolean;
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)\s*(.*)$/;
const TYPESCRIPT = new Set(['ts', 'typescript', 'mts', 'tsx']);

/**
 * The ```` ```ts ```` (or `typescript`) blocks of a markdown text, in order. The words after
 * the language are the block's flags: `run` marks a runnable block, `skip` a block that is
 * not checked (say why next to it, e.g. a fragment of invalid TypeScript on purpose).
 */
export function markdownSnippets(file: string, text: string): Snippet[] {
  return fencedBlocks(text.split('\n'), 1).map((block) => ({ file, ...block }));
}

/**
 * The code of every TSDoc `@example` in a TypeScript source text: its fenced ```` ```ts ````
 * blocks (with the same flags as in markdown), or its whole text when it has no fence.
 */
export function tsdocSnippets(file: string, text: string): Snippet[] {
  const snippets: Snippet[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*\/\*\*/.test(lines[i] ?? '')) continue;
    const start = i;
    while (i < lines.length && !(lines[i] ?? '').includes('*/')) i++;
    const comment = lines.slice(start, i + 1).map(commentText);
    snippets.push(...examplesOf(file, comment, start + 1));
  }
  return snippets;
}

/** The text of one line of a `/** … *\/` comment, without its `/**`, ` * ` and `*\/`. */
function commentText(line: string): string {
  return line
    .replace(/\*\/\s*$/, '')
    .replace(/^\s*\/\*\*\s?/, '')
    .replace(/^\s*\*( |$)/, '');
}

function examplesOf(file: string, comment: string[], firstLine: number): Snippet[] {
  const snippets: Snippet[] = [];
  for (let i = 0; i < comment.length; i++) {
    const tag = /^\s*@example\b(.*)$/.exec(comment[i] ?? '');
    if (!tag) continue;
    let end = i + 1;
    while (end < comment.length && !/^\s*@\w+/.test(comment[end] ?? '')) end++;
    const body = comment.slice(i + 1, end);
    const fenced = fencedBlocks(body, firstLine + i + 1);
    if (fenced.length > 0) snippets.push(...fenced.map((block) => ({ file, ...block })));
    else if (body.some((line) => line.trim() !== '')) {
      snippets.push({ file, line: firstLine + i + 1, code: body.join('\n'), run: false });
    }
    i = end - 1;
  }
  return snippets;
}

function fencedBlocks(lines: readonly string[], firstLine: number): Omit<Snippet, 'file'>[] {
  const blocks: Omit<Snippet, 'file'>[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i] ?? '');
    if (!open) continue;
    const [, indent = '', marker = '', language = '', info = ''] = open;
    let end = i + 1;
    while (end < lines.length && !isClosing(lines[end] ?? '', marker)) end++;
    const flags = info.split(/\s+/);
    if (TYPESCRIPT.has(language) && !flags.includes('skip')) {
      const code = lines.slice(i + 1, end).map((line) => unindent(line, indent.length));
      blocks.push({ line: firstLine + i + 1, code: code.join('\n'), run: flags.includes('run') });
    }
    i = end;
  }
  return blocks;
}

function isClosing(line: string, marker: string): boolean {
  const trimmed = line.trim();
  return trimmed.startsWith(marker) && /^[`~]+$/.test(trimmed);
}

function unindent(line: string, width: number): string {
  const spaces = /^ */.exec(line)?.[0].length ?? 0;
  return line.slice(Math.min(spaces, width));
}
