/**
 * structured-report: a StructuredOutputAgent looks sales data up with a business tool and
 * returns a typed, validated object (the zod schema in `salesReport.ts`) instead of prose.
 *
 *   npx -y pnpm@10.34.9 --filter @rxagent/example-structured-report start
 *
 * It runs twice, once per reminder strategy for a model that answers in plain text:
 * TOOL_CHOICE forces the `generate_response` tool on the next request (`↳ tool choice
 * forced`); PROMPT adds a reminder message instead (`↳ system: ...`), for servers that do not
 * support a named tool_choice. An invalid field goes back to the model as a validation error.
 */
import { Toolkit, userMsg } from '@rxagent/core';
import { chooseModel, type ExampleOptions, runMain } from '@rxagent/example-kit';
import { StructuredOutputAgent, StructuredOutputReminder } from '@rxagent/structured-output';
import { renderEvents } from '@rxagent/terminal';
import { filter, lastValueFrom, map } from 'rxjs';
import { querySalesTool } from './querySales.js';
import { SalesReport } from './salesReport.js';
import { reportScript } from './script.js';

/** The two runs: which region each asks about, and its reminder strategy. */
export const RUNS = [
  { region: 'EMEA', reminder: StructuredOutputReminder.TOOL_CHOICE, label: 'TOOL_CHOICE' },
  { region: 'APAC', reminder: StructuredOutputReminder.PROMPT, label: 'PROMPT' },
] as const;

/** Options of `main` (see `ExampleOptions`). */
export type MainOptions = ExampleOptions;

/** Runs both reminder strategies; resolves with the typed reports, in run order. */
export async function main(options: MainOptions = {}): Promise<SalesReport[]> {
  const out = options.out ?? process.stdout;
  const reports: SalesReport[] = [];
  for (const [index, run] of RUNS.entries()) {
    const script = () => reportScript(run.region, run.label, options.paceMs ?? 15);
    const { model, banner } = chooseModel(script, options.env);
    if (index === 0) out.write(`${banner}\n`);
    const question = `Write the Q3 sales report for ${run.region}.`;
    out.write(`\n── reminder: ${run.label} ──\nuser: ${question}\n`);

    const agent = new StructuredOutputAgent({
      name: 'analyst',
      sysPrompt: 'You are a sales analyst. Look figures up with query_sales; never invent numbers.',
      model,
      toolkit: new Toolkit([querySalesTool]),
      reminder: run.reminder,
    });
    // `structuredOutput` turns this call into a structured one: the reply's
    // metadata.response is the object, already validated against the schema.
    const reply = await lastValueFrom(
      agent.stream(userMsg(question), { structuredOutput: SalesReport }).pipe(
        renderEvents({ out }),
        filter((event) => event.type === 'reply'),
        map((event) => event.msg),
      ),
    );
    // Parsing again costs nothing and gives the value its static type without a cast.
    const report = SalesReport.parse(reply.metadata['response']);
    reports.push(report);
    out.write(`typed SalesReport (${run.label}):\n${JSON.stringify(report, null, 2)}\n`);
  }
  return reports;
}

runMain(import.meta.url, main);
