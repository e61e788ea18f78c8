import { describe, expect, it } from 'vitest';
import { Bm25Index, tokenize } from '../src/bm25.js';
import { KnowledgeBase } from '../src/knowledgeBase.js';
import { KB_DIR } from '../src/main.js';

describe('tokenize', () => {
  it('lower-cases, drops stopwords and punctuation, and folds plurals', () => {
    expect(tokenize('What are the Q3 Sales-Commission rules?')).toEqual([
      'q3',
      'sale',
      'commission',
      'rule',
    ]);
    expect(tokenize('class access')).toEqual(['class', 'access']);
  });
});

describe('Bm25Index', () => {
  it('ranks a rarer matching term above a common one (idf)', () => {
    const index = new Bm25Index([
      { id: 'common', text: 'report report' },
      { id: 'rare', text: 'bonus report' },
      { id: 'other', text: 'report' },
    ]);
    expect(index.idf('bonus')).toBeGreaterThan(index.idf('report'));
    expect(index.search('bonus report')[0]?.id).toBe('rare');
  });

  it('saturates term frequency: repetition helps less and less', () => {
    const index = new Bm25Index([
      { id: 'one', text: 'quota x x x' },
      { id: 'two', text: 'quota quota x x' },
      { id: 'four', text: 'quota quota quota quota' },
      { id: 'none', text: 'y y y y' },
    ]);
    const [four, two, one] = ['four', 'two', 'one'].map(
      (id) => index.search('quota').find((hit) => hit.id === id)!.score,
    );
    expect(two! - one!).toBeGreaterThan(four! - two!);
  });

  it('normalises for length: a short document about the query beats a long one mentioning it', () => {
    const filler = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    const index = new Bm25Index([
      { id: 'long', text: `payout ${filler}` },
      { id: 'short', text: 'payout date' },
    ]);
    expect(index.search('payout').map((hit) => hit.id)).toEqual(['short', 'long']);
  });

  it('returns only documents that match, at most `limit`', () => {
    const index = new Bm25Index([
      { id: 'a', text: 'alpha' },
      { id: 'b', text: 'beta' },
      { id: 'c', text: 'alpha beta' },
    ]);
    expect(index.search('gamma')).toEqual([]);
    expect(index.search('alpha', 1)).toHaveLength(1);
  });

  it('puts the Q3 rules first for the Q3 question over the bundled knowledge base', async () => {
    const kb = await KnowledgeBase.load(KB_DIR);
    const hits = kb.search('What are the Q3 sales commission rules?', 3);
    expect(hits[0]?.id).toBe('q3-sales-commission');
    expect(hits.map((hit) => hit.id)).toContain('q2-sales-commission');
    expect(kb.search('hotel per night')[0]?.id).toBe('travel-policy');
  });
});
