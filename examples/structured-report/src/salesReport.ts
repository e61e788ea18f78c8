import { z } from 'zod';

/**
 * The typed result the agent must return. The `describe()` texts reach the model through the
 * generated `generate_response` tool's JSON Schema, so they double as instructions.
 */
export const SalesReport = z.object({
  region: z.enum(['EMEA', 'APAC', 'AMER']),
  quarter: z.string().regex(/^Q[1-4]$/),
  totalRevenue: z.number().nonnegative().describe('Revenue of the quarter, in USD'),
  orderCount: z.number().int().nonnegative(),
  topProduct: z.object({ name: z.string(), revenue: z.number().nonnegative() }),
  trend: z.enum(['up', 'flat', 'down']).describe('Against the previous quarter: flat within ±5%'),
  highlights: z.array(z.string()).min(1).max(3).describe('One-sentence observations'),
});

/** A validated sales report. */
export type SalesReport = z.infer<typeof SalesReport>;
