import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  assistantMsg,
  type ContextRequest,
  createMsg,
  estimateTokens,
  type ToolSchema,
  userMsg,
} from '@rxagent/core';
import { describe, expect, it } from 'vitest';
import { encodingForModel, openAITokenCounter } from './openAITokenCounter.js';

const lookup: ToolSchema = {
  type: 'function',
  function: {
    name: 'search_kb',
    description: 'Searches the company knowledge base and returns the best matching passages.',
    parameters: {
      type: 'object',
      properties: { query: { type: 'string', description: 'What to look for.' } },
      required: ['query'],
    },
  },
};

/** A realistic conversation: prose, a tool round with JSON output, and an answer. */
function sample(): ContextRequest {
  const call = {
    type: 'tool_use',
    id: 'call_1',
    name: 'search_kb',
    input: { query: 'travel policy for flights over six hours' },
  } as const;
  const passages = Array.from({ length: 12 }, (_, i) => ({
    id: `doc-${i}`,
    title: `Travel policy section ${i}`,
    text: 'Employees may book business class for flights longer than six hours, subject to manager approval and the quarterly budget.',
    score: 0.9 - i / 20,
  }));
  return {
    systemPrompt:
      'You are a helpful assistant for the finance team. Answer from the knowledge base and cite the documents you used.',
    messages: [
      userMsg('Can I fly business class to Singapore next month? The flight is about 13 hours.'),
      assistantMsg([{ type: 'text', text: 'Let me check the travel policy.' }, call], {
        name: 'bot',
      }),
      createMsg({
        name: 'bot',
        role: 'tool',
        content: [
          {
            type: 'tool_result',
            id: 'call_1',
            name: 'search_kb',
            output: JSON.stringify(passages),
          },
        ],
      }),
      assistantMsg(
        'Yes: flights over six hours may be booked in business class with your manager’s approval, within the quarterly budget [doc-0].',
        { name: 'bot' },
      ),
    ],
    tools: [lookup],
    selfName: 'bot',
  };
}

describe('openAITokenCounter', () => {
  it("counts a chat the way OpenAI documents: 3 per message, the role's and content's tokens, 3 to prime", async () => {
    const count = await openAITokenCounter({ model: 'gpt-4o' });
    // "hello world" is 2 tokens, "user" 1.
    expect(count({ systemPrompt: '', messages: [userMsg('hello world')], tools: [] })).toBe(
      3 + 1 + 2 + 3,
    );
  });

  it('treats special-token text as plain text instead of throwing', async () => {
    const count = await openAITokenCounter({ encoding: 'cl100k_base' });
    const request = { systemPrompt: '', messages: [userMsg('<|endoftext|>')], tools: [] };
    expect(count(request)).toBeGreaterThan(7);
  });

  it('agrees with the 4-characters-a-token estimate within a factor of 1.5 on a sample conversation', async () => {
    const request = sample();
    for (const model of ['gpt-4o', 'gpt-4']) {
      const exact = (await openAITokenCounter({ model }))(request);
      const estimate = estimateTokens(request);
      expect(exact).toBeGreaterThan(300);
      expect(estimate / exact).toBeGreaterThan(1 / 1.5);
      expect(estimate / exact).toBeLessThan(1.5);
    }
  });

  it('picks cl100k for gpt-4 and gpt-3.5, o200k for newer models and unknown names', () => {
    expect(encodingForModel('gpt-4')).toBe('cl100k_base');
    expect(encodingForModel('gpt-4-turbo')).toBe('cl100k_base');
    expect(encodingForModel('gpt-3.5-turbo')).toBe('cl100k_base');
    for (const model of ['gpt-4o-mini', 'gpt-4.1', 'gpt-5', 'o3-mini', 'llama3'])
      expect(encodingForModel(model)).toBe('o200k_base');
  });

  it('rejects an unknown encoding', async () => {
    await expect(openAITokenCounter({ encoding: 'p50k' as 'o200k_base' })).rejects.toThrow(
      /unknown encoding "p50k"/,
    );
  });
});

describe('the tokenizer dependency', () => {
  it('is imported only dynamically, so importing core or react-agent never loads it', () => {
    const packages = fileURLToPath(new URL('../../..', import.meta.url));
    const offenders: string[] = [];
    for (const pkg of ['core', 'react-agent']) {
      const root = join(packages, pkg, 'src');
      for (const file of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
        if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
        const source = readFileSync(join(root, file), 'utf8');
        const statics = source.match(/^\s*(?:import|export)\b[^;]*['"]gpt-tokenizer[^'"]*['"]/gm);
        if (statics !== null) offenders.push(`${pkg}/src/${file}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
