import { tool } from '@rxagent/core';
import { z } from 'zod';
import { ORDERS } from './orders.js';

const PREVIOUS = { Q3: 'Q2' } as const;

/**
 * Aggregates the order book for a region and quarter: revenue, order count, revenue per
 * product (highest first) and the change against the previous quarter.
 */
export function querySales(region: string, quarter: 'Q3') {
  const orders = ORDERS.filter((order) => order.region === region && order.quarter === quarter);
  const byProduct = new Map<string, number>();
  for (const order of orders)
    byProduct.set(order.product, (byProduct.get(order.product) ?? 0) + order.amount);
  const revenue = orders.reduce((sum, order) => sum + order.amount, 0);
  const previousRevenue = ORDERS.filter(
    (order) => order.region === region && order.quarter === PREVIOUS[quarter],
  ).reduce((sum, order) => sum + order.amount, 0);
  return {
    region,
    quarter,
    revenue,
    orderCount: orders.length,
    revenueByProduct: Object.fromEntries([...byProduct].sort((a, b) => b[1] - a[1])),
    previousQuarterRevenue: previousRevenue,
    changePct:
      previousRevenue === 0
        ? null
        : Math.round(((revenue - previousRevenue) / previousRevenue) * 1000) / 10,
  };
}

/** `query_sales`: the business tool the agent looks data up with. */
export const querySalesTool = tool({
  name: 'query_sales',
  description:
    'Sales figures for a region and quarter: revenue, order count, revenue by product, change vs the previous quarter.',
  parameters: z.object({ region: z.enum(['EMEA', 'APAC', 'AMER']), quarter: z.enum(['Q3']) }),
  execute: ({ region, quarter }) => JSON.stringify(querySales(region, quarter)),
});
