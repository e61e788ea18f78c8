import { describe, expect, it } from 'vitest';
import { Bm25Index, tokenize } from './bm25.js';

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

  it('keeps words of any script and treats operators and punctuation as text', () => {
    expect(tokenize('Café über 東京 Ünïcode')).toEqual(['café', 'über', '東京', 'ünïcode']);
    expect(tokenize('"quoted" AND (NOT x*) OR -y: NEAR/3')).toEqual([
      'quoted',
      'not',
      'x',
      'y',
      'near',
      '3',
    ]);
    expect(tokenize('*** ()" ^')).toEqual([]);
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
});

describe('Bm25Index top hits', () => {
  it('gives the same ranking for a short limit and a long one (ties in corpus order)', () => {
    const docs = Array.from({ length: 300 }, (_, i) => ({
      id: `d${i}`,
      text: `${i % 3 === 0 ? 'tea' : 'coffee'} ${i % 5 === 0 ? 'tea' : ''} ${i % 7 === 0 ? 'green' : ''} filler${i}`,
    }));
    const index = new Bm25Index(docs);
    const all = index.search('green tea', 300);
    expect(all.length).toBe(docs.filter((d) => /tea|green/.test(d.text)).length);
    for (let i = 1; i < all.length; i++)
      expect(all[i - 1]!.score).toBeGreaterThanOrEqual(all[i]!.score);
    expect(index.search('green tea', 7)).toEqual(all.slice(0, 7));
    expect(index.search('green tea', 70)).toEqual(all.slice(0, 70));
    expect(index.search('green tea', 0)).toEqual([]);
  });
});
