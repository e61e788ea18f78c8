import { describe, expect, it } from 'vitest';
import { markdownSnippets, tsdocSnippets } from './extractSnippets.js';

describe('markdownSnippets', () => {
  it('returns each ts block with the line of its first code line and its run flag', () => {
    const text = [
      '# Title',
      '```ts',
      'const a = 1;',
      '```',
      '```sh',
      'echo no',
      '```',
      '```ts run',
      'console.log(2);',
      'console.log(3);',
      '```',
      '```ts skip',
      'not checked',
      '```',
    ].join('\n');
    expect(markdownSnippets('README.md', text)).toEqual([
      { file: 'README.md', line: 3, code: 'const a = 1;', run: false },
      { file: 'README.md', line: 9, code: 'console.log(2);\nconsole.log(3);', run: true },
    ]);
  });

  it('unindents a block nested in a list item', () => {
    const text = '- item\n\n  ```ts\n  if (x) {\n    y();\n  }\n  ```\n';
    expect(markdownSnippets('a.md', text)[0]?.code).toBe('if (x) {\n  y();\n}');
  });
});

describe('tsdocSnippets', () => {
  it('returns the fenced code of an @example, with its line in the source file', () => {
    const text = [
      'import x from "y";', // 1
      '/**', // 2
      ' * Does things.', // 3
      ' *', // 4
      ' * @example', // 5
      ' * ```ts', // 6
      ' * const a = f();', // 7
      ' * ```', // 8
      ' * @param b - not code', // 9
      ' */', // 10
      'export function f() {}', // 11
    ].join('\n');
    expect(tsdocSnippets('f.ts', text)).toEqual([
      { file: 'f.ts', line: 7, code: 'const a = f();', run: false },
    ]);
  });

  it('takes an @example without a fence as code, up to the next tag', () => {
    const text = '/**\n * Hi.\n * @example\n * g(1);\n *   g(2);\n * @see h\n */';
    expect(tsdocSnippets('g.ts', text)).toEqual([
      { file: 'g.ts', line: 4, code: 'g(1);\n  g(2);', run: false },
    ]);
  });

  it('ignores comments without examples and one-line comments', () => {
    expect(tsdocSnippets('h.ts', '/** One line. */\nconst a = 1;\n/**\n * Two.\n */')).toEqual([]);
  });
});
