import type { ScriptedReply } from '@rxagent/core/testing';
import { lastToolOutput } from '@rxagent/example-kit';

/**
 * The scripted model's side: it loads the refunds skill, reads its limits, looks the order
 * up, refunds it (149 EUR is within the 200 EUR limit) and answers with the refund id.
 */
export function deskScript(paceMs = 0): ScriptedReply[] {
  return [
    { toolCalls: [{ name: 'load_skill', arguments: { name: 'refunds' } }] },
    {
      toolCalls: [
        { name: 'read_skill_file', arguments: { name: 'refunds', path: 'reference/limits.md' } },
        { name: 'lookup_order', arguments: { order: 'A-1001' } },
      ],
    },
    { toolCalls: [{ name: 'refund', arguments: { order: 'A-1001', amount: 149 } }] },
    (request) => {
      const refund = /R-\d+/.exec(lastToolOutput(request, 'refund') ?? '')?.[0] ?? 'unknown';
      return {
        text: `Your order A-1001 was refunded: 149 EUR, refund ${refund}. It takes 3-5 business days to reach your card.`,
        chunkDelayMs: paceMs,
      };
    },
  ];
}
