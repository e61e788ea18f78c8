import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { textOf } from '@rxagent/core';
import { captureOutput } from '@rxagent/example-kit';
import { describe, expect, it } from 'vitest';
import { KB_DIR, main } from '../src/main.js';

/** Secrets planted in the bundled documents; none may leave the tools. */
const SECRETS = [
  'sk-live-51HqLyjWDarjtT1zdp7dc0aB3x9',
  'eyJhbGciOiJIUzI1NiJ9',
  'intranet.example.internal',
  'wiki.corp.example.internal',
];

describe('knowledge-base example (offline)', () => {
  it('answers with the Q3 rules from the knowledge base, citing it', async () => {
    const { out, text } = captureOutput();
    const { reply } = await main({ out, env: {}, paceMs: 0, toolTimeoutMs: 50 });
    const answer = textOf(reply);
    const q3 = readFileSync(join(KB_DIR, 'q3-sales-commission.md'), 'utf8');

    expect(text().split('\n')[0]).toMatch(/^mode: offline/);
    expect(answer).toContain('[q3-sales-commission]');
    for (const rule of q3.split('\n').filter((line) => line.startsWith('- ')))
      expect(answer).toContain(rule);
    expect(answer).not.toContain('5% of net'); // the superseded Q2 rate
  });

  it('keeps every secret out of the output and the memory', async () => {
    const planted = ['q3-sales-commission.md', 'sales-ops-runbook.md']
      .map((file) => readFileSync(join(KB_DIR, file), 'utf8'))
      .join('\n');
    for (const secret of SECRETS) expect(planted).toContain(secret);

    const { out, text } = captureOutput();
    const { memory } = await main({ out, env: {}, paceMs: 0, toolTimeoutMs: 50 });
    const stored = JSON.stringify(memory);
    expect(stored).toContain('[REDACTED:');
    expect(text()).toMatch(/🔒 redacted \d+ secrets? from search_kb output/);
    for (const secret of SECRETS) {
      expect(text()).not.toContain(secret);
      expect(stored).not.toContain(secret);
    }
  });

  it('times out the hanging tool and refuses a tool that is not registered', async () => {
    const { out, text } = captureOutput();
    await main({ out, env: {}, paceMs: 0, toolTimeoutMs: 50 });
    expect(text()).toContain('✗ search_archive: Tool "search_archive" timed out after 50 ms');
    expect(text()).toContain(
      '✗ fetch_url: Tool "fetch_url" does not exist or is disabled. Available tools: search_kb, read_doc, search_archive.',
    );
  });
});
