import type { ChatRequest } from '@rxagent/core';
import type { ScriptedReply } from '@rxagent/core/testing';
import { lastToolOutput } from '@rxagent/example-kit';
import type { querySales } from './querySales.js';

type SalesData = ReturnType<typeof querySales>;

const usd = (amount: number) => `$${amount.toLocaleString('en-US')}`;

function salesData(request: ChatRequest): SalesData {
  return JSON.parse(lastToolOutput(request, 'query_sales') ?? '{}') as SalesData;
}

/** The report the scripted model builds from the real `query_sales` output. */
function reportOf(data: SalesData) {
  const [name, revenue] = Object.entries(data.revenueByProduct)[0] ?? ['none', 0];
  const change = data.changePct ?? 0;
  return {
    region: data.region,
    quarter: data.quarter,
    totalRevenue: data.revenue,
    orderCount: data.orderCount,
    topProduct: { name, revenue },
    trend: change > 5 ? 'up' : change < -5 ? 'down' : 'flat',
    highlights: [
      `${usd(data.revenue)} from ${data.orderCount} orders, ${change >= 0 ? '+' : ''}${change}% against the previous quarter.`,
      `${name} led with ${usd(revenue)}.`,
    ],
  };
}

/**
 * The scripted model for one run. Like a real model now and then, it first answers in plain
 * text; what happens next is the point of the run: with `TOOL_CHOICE` the agent forces the
 * `generate_response` tool, with `PROMPT` it adds a reminder message. In the PROMPT run the
 * first structured attempt also has an invalid field, which goes back as a validation error.
 */
export function reportScript(
  region: string,
  mode: 'TOOL_CHOICE' | 'PROMPT',
  paceMs = 0,
): ScriptedReply[] {
  const script: ScriptedReply[] = [
    { toolCalls: [{ name: 'query_sales', arguments: { region, quarter: 'Q3' } }] },
    (request) => {
      const data = salesData(request);
      return {
        text: `${data.region} made ${usd(data.revenue)} in ${data.quarter} across ${data.orderCount} orders.`,
        chunkDelayMs: paceMs,
      };
    },
  ];
  if (mode === 'PROMPT') {
    script.push((request) => ({
      toolCalls: [
        {
          name: 'generate_response',
          arguments: { response: { ...reportOf(salesData(request)), trend: 'rising' } },
        },
      ],
    }));
  }
  script.push((request) => ({
    toolCalls: [
      { name: 'generate_response', arguments: { response: reportOf(salesData(request)) } },
    ],
  }));
  return script;
}
