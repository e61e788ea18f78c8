import { describe, expect, it } from 'vitest';
import { KnowledgeBase } from '../src/knowledgeBase.js';
import { KB_DIR } from '../src/main.js';

describe('KnowledgeBase', () => {
  it('puts the Q3 rules first for the Q3 question over the bundled knowledge base', async () => {
    const kb = await KnowledgeBase.load(KB_DIR);
    const hits = kb.search('What are the Q3 sales commission rules?', 3);
    expect(hits[0]?.id).toBe('q3-sales-commission');
    expect(hits.map((hit) => hit.id)).toContain('q2-sales-commission');
    expect(kb.search('hotel per night')[0]?.id).toBe('travel-policy');
  });
});
