import type { ScriptedReply } from '@rxagent/core/testing';
import { lastToolOutput } from '@rxagent/example-kit';

/** The person's request. */
export const REQUEST =
  'Book me, Ana Silva, the cheapest direct flight from Paris to Lisbon on 12 December 2026.';

/**
 * What the scripted model says offline, in request order: the travel agent delegates, the
 * booking agent searches and asks to pay, and (after the person's decision) both answer
 * from the real tool results in their requests.
 */
export function bookingScript(paceMs = 0): ScriptedReply[] {
  return [
    // travel: hand the booking over.
    {
      chunkDelayMs: paceMs,
      text: 'I will ask the booking agent.',
      toolCalls: [
        {
          name: 'booking',
          arguments: {
            request: 'Book the cheapest direct flight PAR → LIS on 2026-12-12 for Ana Silva.',
          },
        },
      ],
    },
    // booking: search.
    {
      toolCalls: [
        { name: 'search_flights', arguments: { from: 'PAR', to: 'LIS', date: '2026-12-12' } },
      ],
    },
    // booking: pay for the cheapest direct one, with the default card.
    (request) => {
      const flights = JSON.parse(lastToolOutput(request, 'search_flights') ?? '[]') as Array<{
        flight: string;
        stops: number;
        priceUsd: number;
      }>;
      const cheapest = flights
        .filter((f) => f.stops === 0)
        .sort((a, b) => a.priceUsd - b.priceUsd)[0]!;
      return {
        toolCalls: [
          {
            name: 'pay',
            arguments: {
              flight: cheapest.flight,
              amountUsd: cheapest.priceUsd,
              card: 'personal-visa',
            },
          },
        ],
      };
    },
    // booking: report what the payment did (after the decision).
    (request) => {
      const paid = lastToolOutput(request, 'pay') ?? '';
      const payment = parsePayment(paid);
      if (!payment)
        return { chunkDelayMs: paceMs, text: `The payment did not go through: ${paid}` };
      return {
        chunkDelayMs: paceMs,
        text: `Booked ${payment.flight} for $${payment.amountUsd}, paid with ${payment.card}; confirmation ${payment.confirmation}.`,
      };
    },
    // travel: tell the person.
    (request) => ({
      chunkDelayMs: paceMs,
      text: `Done: ${lastToolOutput(request, 'booking') ?? 'the booking agent did not answer.'}`,
    }),
  ];
}

/** A `pay` result as the payment it made, or `undefined` for an error or denial text. */
function parsePayment(
  output: string,
): { flight: string; amountUsd: number; card: string; confirmation: string } | undefined {
  try {
    const payment = JSON.parse(output);
    return typeof payment?.confirmation === 'string' ? payment : undefined;
  } catch {
    return undefined;
  }
}
