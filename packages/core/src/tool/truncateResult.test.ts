import { describe, expect, it } from 'vitest';
import type { ToolResultBlock } from '../message/contentBlock.js';
import { truncateResult } from './truncateResult.js';

const result = (output: ToolResultBlock['output']): ToolResultBlock => ({
  type: 'tool_result',
  id: 'c1',
  name: 'read',
  output,
});

describe('truncateResult', () => {
  it('returns the same block and no truncation info when the text fits', () => {
    const block = result('x'.repeat(100));
    expect(truncateResult(block, 100)).toEqual({ result: block });
    expect(truncateResult(block, 100).result).toBe(block);
  });

  it('keeps the head and the tail around a marker counting the cut characters', () => {
    const text = `${'a'.repeat(500)}${'m'.repeat(1000)}${'z'.repeat(500)}`;
    const { result: cut, truncated } = truncateResult(result(text), 200);
    const output = cut.output as string;
    expect(truncated).toEqual({ originalChars: 2000 });
    expect(output.length).toBeLessThanOrEqual(200);
    expect(output).toMatch(/^a+\[… (\d+) characters truncated …\]z+$/);
    const [, n] = /\[… (\d+) characters/.exec(output)!;
    const kept = output.length - `[… ${n} characters truncated …]`.length;
    expect(Number(n) + kept).toBe(2000);
    expect(cut.id).toBe('c1');
  });

  it('never splits a surrogate pair at either edge of the cut', () => {
    const emoji = '😀'; // two UTF-16 code units
    for (let max = 30; max < 60; max++) {
      const { result: cut } = truncateResult(result(emoji.repeat(200)), max);
      const output = cut.output as string;
      const [head, tail] = output.split(/\[… \d+ characters truncated …\]/);
      expect(head!.length % 2).toBe(0);
      expect(tail!.length % 2).toBe(0);
      expect(output).not.toMatch(
        /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/,
      );
    }
  });

  it('counts the text parts of a block output and keeps its images after the cut text', () => {
    const block = result([
      { type: 'text', text: 'h'.repeat(300) },
      { type: 'image', url: 'data:image/png;base64,AAAA' },
      { type: 'text', text: 't'.repeat(300) },
    ]);
    const { result: cut, truncated } = truncateResult(block, 100);
    expect(truncated).toEqual({ originalChars: 601 });
    const parts = cut.output as ToolResultBlock['output'] & unknown[];
    expect(parts).toHaveLength(2);
    expect(parts[0]).toMatchObject({
      type: 'text',
      text: expect.stringMatching(/^h+\[… \d+ characters truncated …\]t+$/),
    });
    expect(parts[1]).toEqual({ type: 'image', url: 'data:image/png;base64,AAAA' });
  });

  it('leaves a block output whose text fits untouched, however large its images', () => {
    const block = result([{ type: 'image', url: `data:,${'x'.repeat(1000)}` }]);
    expect(truncateResult(block, 10).result).toBe(block);
  });

  it('keeps only the marker when the limit is smaller than the marker', () => {
    const { result: cut } = truncateResult(result('x'.repeat(100)), 5);
    expect(cut.output).toBe('[… 100 characters truncated …]');
  });

  it('never cuts with an infinite limit', () => {
    const block = result('x'.repeat(100_000));
    expect(truncateResult(block, Number.POSITIVE_INFINITY).result).toBe(block);
  });
});
