import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { textOf } from '@rxagent/core';
import { captureOutput } from '@rxagent/example-kit';
import { describe, expect, it } from 'vitest';
import { main, REPO_ROOT } from '../src/main.js';
import { TARGET } from '../src/script.js';

/** Lines from `export function name(` to the next top-level `}`, counted independently of the tools. */
function linesOf(source: string[], name: string): number {
  const start = source.findIndex((line) => line.startsWith(`export function ${name}(`));
  const end = source.findIndex((line, index) => index > start && line === '}');
  expect(start).toBeGreaterThanOrEqual(0);
  return end - start + 1;
}

describe('code-assistant example (offline)', () => {
  it('answers with the number computed from the real file, under the judge, with a duplicate call intercepted', async () => {
    const source = readFileSync(join(REPO_ROOT, TARGET.path), 'utf8').split('\n');
    const [a, b] = TARGET.functions;
    const expected = ((linesOf(source, a) + linesOf(source, b)) * 4) / 2;

    const { out, text } = captureOutput();
    const reply = await main({ out, env: {}, paceMs: 0 });
    const output = text();

    expect(output.split('\n')[0]).toMatch(/^mode: offline/);
    expect(textOf(reply)).toContain(`= **${expected}**`);
    expect(output).toContain(
      `← calculator: (${linesOf(source, a)} + ${linesOf(source, b)}) * 4 / 2 = ${expected}`,
    );
    expect(output).toContain('↺ read_file: [duplicate] Not run again');
    expect(output).toContain('⚖ judge rejected the draft');
    expect(output).toContain('⚖ judge: pass after 1 rejection');
    expect(reply.metadata['finishGuard']).toMatchObject({ pass: true, rejections: 1 });
  });
});
