import { tool } from '@rxagent/core';
import { z } from 'zod';

/** One flight on offer. */
export interface Flight {
  readonly flight: string;
  readonly from: string;
  readonly to: string;
  readonly date: string;
  readonly departs: string;
  readonly stops: number;
  readonly priceUsd: number;
}

/** The fares the example's search returns (a fixed table, so the offline run and the test agree). */
export const FLIGHTS: readonly Flight[] = [
  {
    flight: 'TP433',
    from: 'PAR',
    to: 'LIS',
    date: '2026-12-12',
    departs: '09:40',
    stops: 0,
    priceUsd: 182,
  },
  {
    flight: 'AF1024',
    from: 'PAR',
    to: 'LIS',
    date: '2026-12-12',
    departs: '13:15',
    stops: 0,
    priceUsd: 215,
  },
  {
    flight: 'IB3401',
    from: 'PAR',
    to: 'LIS',
    date: '2026-12-12',
    departs: '07:05',
    stops: 1,
    priceUsd: 149,
  },
];

/** The cards a payment may use. */
export const CARDS = ['personal-visa', 'corporate-amex'] as const;

/** A payment the `pay` tool made. */
export interface Payment {
  readonly flight: string;
  readonly amountUsd: number;
  readonly card: (typeof CARDS)[number];
  readonly confirmation: string;
}

/** `search_flights`: the fares between two airports on a day. */
export const searchFlightsTool = tool({
  name: 'search_flights',
  description: 'Lists the flights between two airports (IATA city codes) on a date (YYYY-MM-DD).',
  parameters: z.object({
    from: z.string().describe('Departure city code, e.g. PAR'),
    to: z.string().describe('Arrival city code, e.g. LIS'),
    date: z.string().describe('YYYY-MM-DD'),
  }),
  idempotent: true,
  execute: ({ from, to, date }) =>
    FLIGHTS.filter((f) => f.from === from && f.to === to && f.date === date),
});

/**
 * `pay`: charges a card for a flight. It moves money, so every call needs a person's
 * approval (`needsApproval: true`); each payment it makes is pushed onto `ledger`.
 */
export function payTool(ledger: Payment[]) {
  return tool({
    name: 'pay',
    description: "Pays for a flight with one of the traveller's cards. Needs approval.",
    parameters: z.object({
      flight: z.string().describe('The flight number from search_flights'),
      amountUsd: z.number().positive(),
      card: z.enum(CARDS),
    }),
    needsApproval: true,
    execute: ({ flight, amountUsd, card }) => {
      const payment: Payment = {
        flight,
        amountUsd,
        card,
        confirmation: `RX-${flight}-${ledger.length + 1}`,
      };
      ledger.push(payment);
      return payment;
    },
  });
}
