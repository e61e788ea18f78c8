import type { ScriptedReply } from '@rxagent/core/testing';
import { lastToolOutput } from '@rxagent/example-kit';

/** The customers' messages, one ticket each. */
export const TICKETS = [
  'Hi, customer ACME-17 here. I think I was charged twice for March; can I get my money back?',
  'Customer BOLT-03: my router drops Wi-Fi every evening around 8 pm. What can I do?',
] as const;

/** Triage routes each ticket: billing for the charge, technical for the router. */
export function triageScript(): ScriptedReply[] {
  return [
    transfer('billing', 'double charge for March'),
    transfer('technical', 'Wi-Fi drops every evening'),
  ];
}

/** Billing looks the customer up and answers from the ledger. */
export function billingScript(): ScriptedReply[] {
  return [
    { toolCalls: [{ name: 'lookup_invoices', arguments: { customer: 'ACME-17' } }] },
    (request) => {
      const invoices = JSON.parse(lastToolOutput(request, 'lookup_invoices') ?? '[]') as Array<{
        id: string;
        month: string;
        amount: number;
        status: string;
      }>;
      const twice = invoices.find((invoice) => invoice.status === 'charged twice');
      if (twice === undefined) return 'I found no double charge on your account.';
      return `You are right: invoice ${twice.id} (${twice.month}, ${twice.amount} EUR) was charged twice. A refund of ${twice.amount} EUR for the second charge is due and reaches your card within 5 working days.`;
    },
  ];
}

/** Technical asks the researcher, then turns its finding into steps. */
export function technicalScript(): ScriptedReply[] {
  return [
    {
      toolCalls: [
        {
          name: 'ask_researcher',
          arguments: {
            request:
              'Router Wi-Fi drops every evening at busy hours: what does the knowledge base advise?',
          },
        },
      ],
    },
    (request) => {
      const finding = lastToolOutput(request, 'ask_researcher') ?? '';
      const article = /KB-\d+/.exec(finding)?.[0] ?? 'our knowledge base';
      return `Evening drops are usually a crowded 2.4 GHz channel (${article}). 1) Switch your router to the 5 GHz band, or pick channel 1, 6 or 11. 2) Update to firmware 3.2, which picks the channel automatically.`;
    },
  ];
}

/**
 * The researcher searches, then reports what the best article says, streamed word by word
 * (`paceMs` apart) so the technical agent's tool call shows it arriving.
 */
export function researcherScript(paceMs: number): () => ScriptedReply[] {
  return () => [
    { toolCalls: [{ name: 'search_kb', arguments: { query: 'wi-fi drops evening router' } }] },
    (request) => {
      const best = (lastToolOutput(request, 'search_kb') ?? '').split('\n')[0] ?? '';
      return { text: `Best match, ${best}`, chunkDelayMs: paceMs };
    },
  ];
}

function transfer(desk: string, reason: string): ScriptedReply {
  return { toolCalls: [{ name: `transfer_to_${desk}`, arguments: { reason } }] };
}
