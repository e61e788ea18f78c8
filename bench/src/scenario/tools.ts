import { type Tool, Toolkit, type ToolSchema, tool } from '@rxagent/core';
import { z } from 'zod';

const WEATHER: Record<string, string> = {
  Paris: 'Sunny, 21°C',
  Tokyo: 'Cloudy, 18°C',
  Lima: 'Misty, 16°C',
};
const TIME: Record<string, string> = { Paris: '14:00', Tokyo: '21:00', Lima: '07:00' };

const cityArgs = z.object({ city: z.string().describe('City name') });

/** The implementation of a benchmark tool: what every contender executes. */
export interface BenchTool {
  readonly name: string;
  readonly description: string;
  readonly args: typeof cityArgs;
  readonly run: (args: { city: string }) => string;
}

/** The two tools of the scenario, as plain functions with their zod schema. */
export const BENCH_TOOLS: readonly BenchTool[] = [
  {
    name: 'get_weather',
    description: 'Current weather of a city.',
    args: cityArgs,
    run: ({ city }) => WEATHER[city] ?? `No weather data for ${city}`,
  },
  {
    name: 'get_time',
    description: 'Current local time of a city.',
    args: cityArgs,
    run: ({ city }) => TIME[city] ?? `No time data for ${city}`,
  },
];

/** The same tools as rxagent `Tool`s. */
export function rxagentTools(): Tool<{ city: string }>[] {
  return BENCH_TOOLS.map((t) =>
    tool({
      name: t.name,
      description: t.description,
      parameters: t.args,
      execute: t.run,
    }),
  );
}

/** A toolkit holding the scenario's tools. */
export function benchToolkit(): Toolkit {
  return new Toolkit(rxagentTools());
}

/**
 * The tool schemas every contender sends: converted once by rxagent, so all request bodies
 * are byte-for-byte alike and the server does the same work for each contender.
 */
export const TOOL_SCHEMAS: readonly ToolSchema[] = benchToolkit().schemas();

/**
 * Runs one tool call the way a careful hand-written loop does: parse the JSON arguments,
 * validate them with the tool's zod schema, execute (errors become the result text).
 */
export function runBenchTool(name: string, rawArguments: string): string {
  const found = BENCH_TOOLS.find((t) => t.name === name);
  if (!found) return `Unknown tool ${name}`;
  let input: unknown;
  try {
    input = JSON.parse(rawArguments || '{}');
  } catch {
    return `Invalid JSON arguments for ${name}`;
  }
  const parsed = found.args.safeParse(input);
  if (!parsed.success) return `Invalid arguments for ${name}: ${parsed.error.message}`;
  return found.run(parsed.data);
}
