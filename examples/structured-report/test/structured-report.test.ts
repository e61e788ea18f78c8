import { captureOutput } from '@rxagent/example-kit';
import { describe, expect, it } from 'vitest';
import { main, RUNS } from '../src/main.js';
import { querySales } from '../src/querySales.js';
import { SalesReport } from '../src/salesReport.js';

/** The pretty-printed object that follows `marker` in the output. */
function printedObject(output: string, marker: string): unknown {
  const start = output.indexOf(marker);
  expect(start).toBeGreaterThanOrEqual(0);
  const from = output.indexOf('{', start);
  const to = output.indexOf('\n}\n', from);
  return JSON.parse(output.slice(from, to + 2));
}

describe('structured-report example (offline)', () => {
  it('prints, for each reminder strategy, an object that matches the schema and the data', async () => {
    const { out, text } = captureOutput();
    const reports = await main({ out, env: {}, paceMs: 0 });
    const output = text();

    expect(output.split('\n')[0]).toMatch(/^mode: offline/);
    expect(reports).toHaveLength(RUNS.length);
    for (const [index, run] of RUNS.entries()) {
      const printed = SalesReport.parse(printedObject(output, `typed SalesReport (${run.label}):`));
      const data = querySales(run.region, 'Q3');
      expect(printed).toEqual(reports[index]);
      expect(printed).toMatchObject({
        region: run.region,
        totalRevenue: data.revenue,
        orderCount: data.orderCount,
      });
    }
  });

  it('shows how each strategy brings a plain-text answer back to the tool', async () => {
    const { out, text } = captureOutput();
    await main({ out, env: {}, paceMs: 0 });
    const [toolChoice, prompt] = text().split('── reminder: PROMPT ──');
    expect(toolChoice).toContain('↳ tool choice forced: generate_response');
    expect(prompt).toContain('↳ system: [Reminder]');
    expect(prompt).toMatch(/✗ generate_response: .*trend/);
  });
});
