/**
 * weather-outfit: the README demo. One ReActAgent, two real tools, and every step of the
 * call rendered to the terminal as it happens.
 *
 *   npx -y pnpm@10.34.9 --filter @rxagent/example-weather-outfit start
 *
 * Offline (default) a scripted model plays the conversation; with OPENAI_API_KEY or
 * OPENAI_BASE_URL set, the same program talks to a real model.
 */
import { type Msg, userMsg } from '@rxagent/core';
import { chooseModel, type ExampleOptions, runMain } from '@rxagent/example-kit';
import { renderEvents } from '@rxagent/terminal';
import { filter, lastValueFrom, map } from 'rxjs';
import { createAssistant } from './assistant.js';
import { weatherScript } from './script.js';

export const QUESTION =
  "I'm in Shanghai tomorrow on business, check the weather and suggest an outfit.";

/** Options of `main` (see `ExampleOptions`). */
export type MainOptions = ExampleOptions;

/** Runs the demo once and resolves with the agent's reply. */
export async function main(options: MainOptions = {}): Promise<Msg> {
  const out = options.out ?? process.stdout;
  // The same program runs offline or live; say which first, so nobody mistakes one for the other.
  const { model, banner } = chooseModel(() => weatherScript(options.paceMs ?? 15), options.env);
  out.write(`${banner}\n\nuser: ${QUESTION}\n`);

  const agent = createAssistant(model);

  // stream() emits every hook event of the call; renderEvents prints tokens, tool calls and
  // results as they pass, then the timing/usage line. The last event is the reply.
  return lastValueFrom(
    agent.stream(userMsg(QUESTION)).pipe(
      renderEvents({ out }),
      filter((event) => event.type === 'reply'),
      map((event) => event.msg),
    ),
  );
}

runMain(import.meta.url, main);
