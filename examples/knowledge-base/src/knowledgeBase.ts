import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Bm25Index, tokenize } from '@rxagent/core';

/** One markdown document; `id` is its file name without `.md`. */
export interface KbDoc {
  readonly id: string;
  readonly title: string;
  readonly text: string;
}

/** A search result with the line of the document that best matches the query. */
export interface KbHit {
  readonly id: string;
  readonly title: string;
  readonly score: number;
  readonly snippet: string;
}

/** The bundled documents, ranked by BM25. */
export class KnowledgeBase {
  readonly #docs: ReadonlyMap<string, KbDoc>;
  readonly #index: Bm25Index;

  constructor(docs: readonly KbDoc[]) {
    this.#docs = new Map(docs.map((doc) => [doc.id, doc]));
    this.#index = new Bm25Index(
      docs.map((doc) => ({ id: doc.id, text: `${doc.title}\n${doc.text}` })),
    );
  }

  /** Loads every `.md` file of `dir`; the title is the first `# ` heading. */
  static async load(dir: string): Promise<KnowledgeBase> {
    const files = (await readdir(dir)).filter((file) => file.endsWith('.md')).sort();
    const docs = await Promise.all(
      files.map(async (file) => {
        const text = await readFile(join(dir, file), 'utf8');
        const title = /^#\s+(.+)$/m.exec(text)?.[1]?.trim() ?? file;
        return { id: file.slice(0, -'.md'.length), title, text };
      }),
    );
    return new KnowledgeBase(docs);
  }

  /** Document ids, sorted. */
  ids(): string[] {
    return [...this.#docs.keys()];
  }

  /** The document with this id, or `undefined`. */
  get(id: string): KbDoc | undefined {
    return this.#docs.get(id);
  }

  /** The best `limit` documents for `query`, each with its best-matching line. */
  search(query: string, limit = 3): KbHit[] {
    return this.#index.search(query, limit).map(({ id, score }) => {
      const doc = this.#docs.get(id)!;
      return { id, title: doc.title, score, snippet: bestLine(doc.text, query) };
    });
  }
}

/** The body line sharing the most terms with the query (the heading is already the title). */
function bestLine(text: string, query: string): string {
  const wanted = new Set(tokenize(query));
  let best = '';
  let bestScore = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const score = tokenize(line).filter((term) => wanted.has(term)).length;
    if (score > bestScore) {
      best = line.trim();
      bestScore = score;
    }
  }
  return best.length > 200 ? `${best.slice(0, 199)}…` : best;
}
