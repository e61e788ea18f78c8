import { tool } from '@rxagent/core';
import { z } from 'zod';
import type { KnowledgeBase } from './knowledgeBase.js';

/** `search_kb`: BM25-ranked documents for a query, each with its best-matching line. */
export function searchKbTool(kb: KnowledgeBase) {
  return tool({
    name: 'search_kb',
    description:
      'Searches the company knowledge base; returns ranked document ids with a matching line.',
    parameters: z.object({
      query: z.string().min(1),
      limit: z.number().int().min(1).max(8).default(3),
    }),
    execute: ({ query, limit }) => {
      const hits = kb.search(query, limit);
      if (hits.length === 0) return `No documents match "${query}". Try other words.`;
      const lines = hits.map(
        (hit, i) =>
          `${i + 1}. ${hit.id} — ${hit.title} (score ${hit.score.toFixed(2)})\n   > ${hit.snippet}`,
      );
      return `${hits.length} results for "${query}":\n${lines.join('\n')}`;
    },
  });
}

/** `read_doc`: the full text of one document, by the id `search_kb` returned. */
export function readDocTool(kb: KnowledgeBase) {
  return tool({
    name: 'read_doc',
    description: 'Reads a knowledge-base document by id (as returned by search_kb).',
    parameters: z.object({ id: z.string().min(1) }),
    execute: ({ id }) => {
      const doc = kb.get(id);
      if (doc === undefined)
        throw new Error(`No document "${id}". Known ids: ${kb.ids().join(', ')}.`);
      return `[${doc.id}]\n${doc.text.trim()}`;
    },
  });
}

/**
 * `search_archive`: a stand-in for a legacy system that hangs. It never answers in time, so
 * the toolkit's `timeoutMs` aborts it and the model gets an error result instead of the
 * agent waiting forever. It stops as soon as its signal aborts, as every tool should.
 */
export const searchArchiveTool = tool({
  name: 'search_archive',
  description: 'Searches the legacy document archive (pre-2020 policies). Slow.',
  parameters: z.object({ query: z.string().min(1) }),
  execute: (_args, { signal }) =>
    new Promise<string>((_resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('The archive did not answer.')), 60_000);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(signal.reason);
      });
    }),
});
