import { tool } from '@rxagent/core';
import { z } from 'zod';

/** The orders of the scenario; the customer record holds personal data on purpose. */
const ORDERS: Record<string, { status: string; amount: number; customer: string }> = {
  'A-1001': {
    status: 'delivered on 2026-11-28',
    amount: 149,
    customer: 'Jane Roe, jane.roe@example.com, +44 20 7946 0958',
  },
};

/** Looks an order up (its customer record included: the guardrail redacts it). */
export const lookupOrder = tool({
  name: 'lookup_order',
  description: 'Looks up an order: status, amount and customer record.',
  parameters: z.object({ order: z.string().describe('The order id, e.g. A-1001.') }),
  execute: ({ order }) => {
    const found = ORDERS[order];
    if (!found) throw new Error(`no order ${order}`);
    return `Order ${order}: ${found.status}, ${found.amount} EUR. Customer: ${found.customer}.`;
  },
});

/** Refunds an order; records each refund so the test can check what ran. */
export function refundTool(refunds: { order: string; amount: number }[]) {
  return tool({
    name: 'refund',
    description: 'Refunds an amount of an order.',
    parameters: z.object({ order: z.string(), amount: z.number().positive() }),
    execute: ({ order, amount }) => {
      refunds.push({ order, amount });
      return `Refund R-${refunds.length} of ${amount} EUR on ${order} issued.`;
    },
  });
}
