import { tool } from '@rxagent/core';
import { z } from 'zod';

/** One invoice of the desk's small local ledger. */
interface Invoice {
  readonly id: string;
  readonly customer: string;
  readonly month: string;
  readonly amount: number;
  readonly status: 'paid' | 'charged twice' | 'open';
}

const INVOICES: readonly Invoice[] = [
  { id: 'INV-2031', customer: 'ACME-17', month: 'March', amount: 49, status: 'charged twice' },
  { id: 'INV-1987', customer: 'ACME-17', month: 'February', amount: 49, status: 'paid' },
  { id: 'INV-2044', customer: 'BOLT-03', month: 'March', amount: 99, status: 'open' },
];

/** Looks a customer's invoices up, newest first; a refund is due for one charged twice. */
export const lookupInvoices = tool({
  name: 'lookup_invoices',
  description: "A customer's invoices (id, month, amount in EUR, status), newest first.",
  parameters: z.object({ customer: z.string().describe('Customer id, e.g. ACME-17') }),
  execute: ({ customer }) => {
    const found = INVOICES.filter((invoice) => invoice.customer === customer.toUpperCase());
    return found.length > 0 ? found : `No invoices for customer ${customer}.`;
  },
});

/** The articles of the desk's knowledge base. */
const ARTICLES: ReadonlyArray<{ readonly title: string; readonly text: string }> = [
  {
    title: 'KB-12 Evening Wi-Fi drops',
    text: 'Drops at busy hours are channel congestion on 2.4 GHz: switch the router to the 5 GHz band or pick channel 1, 6 or 11 with the fewest neighbours; firmware 3.2 adds automatic channel selection.',
  },
  {
    title: 'KB-07 Router reset',
    text: 'Hold the reset button for 10 seconds; the settings return to factory defaults.',
  },
  {
    title: 'KB-21 Slow downloads',
    text: 'Check the plan speed first; a cable modem needs a restart after a plan upgrade.',
  },
];

/** Searches the knowledge base: the articles sharing the most words with the query. */
export const searchKnowledgeBase = tool({
  name: 'search_kb',
  description: 'Searches the support knowledge base; returns the best matching articles.',
  parameters: z.object({ query: z.string() }),
  execute: ({ query }) => {
    const words = new Set(query.toLowerCase().match(/[a-z0-9-]+/g) ?? []);
    const score = (text: string): number =>
      (text.toLowerCase().match(/[a-z0-9-]+/g) ?? []).filter((word) => words.has(word)).length;
    const ranked = ARTICLES.map((article) => ({
      article,
      score: score(`${article.title} ${article.text}`),
    }))
      .filter((entry) => entry.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, 2);
    if (ranked.length === 0) return 'No matching article.';
    return ranked.map(({ article }) => `${article.title}: ${article.text}`).join('\n');
  },
});
