/**
 * weather-outfit: the README demo. One ReActAgent, two real tools, and every step of the
 * call rendered to the terminal as it happens.
 *
 *   npx -y pnpm@10.34.9 --filter @rxagent/example-weather-outfit start
 *
 * Offline (default) a scripted model plays the conversation; with OPENAI_API_KEY or
 * OPENAI_BASE_URL set, the same program talks to a real model. `--trace out.html` also
 * writes a trace page of the run.
 */
import { type Msg, userMsg } from '@rxagent/core';
import { type TraceEntry, toTraceEntry } from '@rxagent/eval';
import {
  chooseModel,
  type ExampleOptions,
  runMain,
  traceArg,
  writeTracePage,
} from '@rxagent/example-kit';
import { renderEvents } from '@rxagent/terminal';
import { filter, lastValueFrom, map, tap } from 'rxjs';
import { createAssistant } from './assistant.js';
import { weatherScript } from './script.js';

export const QUESTION =
  "I'm in Shanghai tomorrow on business, check the weather and suggest an outfit.";

/** Options of `main` (see `ExampleOptions`). */
export interface MainOptions extends ExampleOptions {
  /** Write a trace page of the run to this file (`--trace FILE`). */
  readonly trace?: string;
}

/** Runs the demo once and resolves with the agent's reply. */
export async function main(options: MainOptions = {}): Promise<Msg> {
  const out = options.out ?? process.stdout;
  // The same program runs offline or live; say which first, so nobody mistakes one for the other.
  const { model, banner } = chooseModel(() => weatherScript(options.paceMs ?? 15), options.env);
  out.write(`${banner}\n\nuser: ${QUESTION}\n`);

  const agent = createAssistant(model);

  // stream() emits every hook event of the call; renderEvents prints tokens, tool calls and
  // results as they pass, then the timing/usage line. The last event is the reply.
  // With --trace, each event is also kept, timed, for the trace page written at the end.
  const trace: TraceEntry[] = [];
  const started = performance.now();
  const reply = await lastValueFrom(
    agent.stream(userMsg(QUESTION)).pipe(
      renderEvents({ out }),
      tap((event) => {
        if (options.trace !== undefined)
          trace.push(toTraceEntry(event, performance.now() - started, agent.name));
      }),
      filter((event) => event.type === 'reply'),
      map((event) => event.msg),
    ),
  );
  if (options.trace !== undefined) {
    const page = await writeTracePage(options.trace, trace, 'weather-outfit');
    out.write(`trace page: ${page}\n`);
  }
  return reply;
}

runMain(import.meta.url, () => {
  const trace = traceArg();
  return main(trace === undefined ? {} : { trace });
});
