/**
 * code-assistant: an agent that reads this repository, explains code and computes with a
 * calculator tool, while a judge checks every final answer covers the whole request.
 *
 *   npx -y pnpm@10.34.9 --filter @rxagent/example-code-assistant start
 *
 * What to look for in the output: the second `read_file` is answered with a [duplicate]
 * result instead of running again; the judge rejects the first draft (it forgot the number)
 * and the agent answers again; the final line shows time and tokens (the judge's included).
 */
import { fileURLToPath } from 'node:url';
import { type Msg, Toolkit, userMsg } from '@rxagent/core';
import { chooseModel, type ExampleOptions, runMain } from '@rxagent/example-kit';
import { JudgeGuard, ReActAgent } from '@rxagent/react-agent';
import { renderEvents } from '@rxagent/terminal';
import { filter, lastValueFrom, map } from 'rxjs';
import { calculatorTool } from './calculatorTool.js';
import { findFunctionTool, readFileTool } from './repoTools.js';
import { assistantScript, judgeScript, TARGET } from './script.js';

/** The repository root: `read_file` can see everything below it and nothing above. */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const [A, B] = TARGET.functions;
export const QUESTION =
  `Read ${TARGET.path}, explain what ${A} and ${B} do, and compute ` +
  `(lines of ${A} + lines of ${B}) × 4 / 2 with the calculator.`;

/** Options of `main` (see `ExampleOptions`). */
export type MainOptions = ExampleOptions;

/** Runs the scenario once and resolves with the agent's reply. */
export async function main(options: MainOptions = {}): Promise<Msg> {
  const out = options.out ?? process.stdout;
  const { model, banner } = chooseModel(() => assistantScript(options.paceMs ?? 15), options.env);
  // Offline, the judge is a second scripted model; live, the same endpoint judges.
  const judge = chooseModel(judgeScript, options.env).model;
  out.write(`${banner}\n\nuser: ${QUESTION}\n`);

  const agent = new ReActAgent({
    name: 'coder',
    sysPrompt:
      'You are a code assistant for this repository. Read files with read_file and locate ' +
      'functions with find_function (paths relative to the repository root). Use calculator ' +
      'for every computation, never mental arithmetic, and state its result in your answer.',
    model,
    toolkit: new Toolkit([readFileTool(REPO_ROOT), findFunctionTool(REPO_ROOT), calculatorTool]),
    // The finish guard: each final draft goes to the judge; a rejected one is dropped and
    // the judge's feedback sent back, at most twice.
    finishGuard: new JudgeGuard({ model: judge, maxRetries: 2 }),
  });

  return lastValueFrom(
    agent.stream(userMsg(QUESTION)).pipe(
      renderEvents({ out }),
      filter((event) => event.type === 'reply'),
      map((event) => event.msg),
    ),
  );
}

runMain(import.meta.url, main);
