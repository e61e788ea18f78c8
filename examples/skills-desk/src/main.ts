/**
 * skills-desk: a support desk agent with two Agent Skills and a PII guardrail.
 *
 *   npx -y pnpm@10.34.9 --filter @rxagent/example-skills-desk start
 *
 * Shows: `loadSkills()` over `skills/` (refunds, shipping-delays): only their names and
 * descriptions are in the system prompt; the model loads the refunds skill and reads its
 * limits when the request needs them. `piiGuardrail({ redact: true })` redacts the card
 * number and e-mail address of the customer's message before the model or memory sees them,
 * and the customer record in a tool result; each redaction is printed as it happens.
 */
import { fileURLToPath } from 'node:url';
import { loadSkills, type Msg, piiGuardrail, Toolkit, userMsg } from '@rxagent/core';
import { chooseModel, type ExampleOptions, runMain } from '@rxagent/example-kit';
import { ReActAgent } from '@rxagent/react-agent';
import { renderEvents } from '@rxagent/terminal';
import { filter, lastValueFrom, map } from 'rxjs';
import { lookupOrder, refundTool } from './deskTools.js';
import { deskScript } from './script.js';

export const SKILLS_DIR = fileURLToPath(new URL('../skills/', import.meta.url));
export const REQUEST =
  'Please refund order A-1001 to my card 4111 1111 1111 1111; my e-mail is jane.roe@example.com.';

/** What a run leaves behind: the reply, the agent's memory, and the refunds that ran. */
export interface DeskRun {
  readonly reply: Msg;
  readonly memory: readonly Msg[];
  readonly refunds: readonly { order: string; amount: number }[];
  readonly systemPrompt: string;
}

/** Runs the scenario once. */
export async function main(options: ExampleOptions = {}): Promise<DeskRun> {
  const out = options.out ?? process.stdout;
  const { model, banner } = chooseModel(() => deskScript(options.paceMs ?? 15), options.env);
  out.write(`${banner}\n\nuser: ${REQUEST}\n`);

  const skills = await loadSkills(SKILLS_DIR);
  const refunds: { order: string; amount: number }[] = [];
  const agent = new ReActAgent({
    name: 'desk',
    sysPrompt:
      'You are a support desk agent. Use your skills: load the one that fits the request before acting.',
    model,
    toolkit: new Toolkit([lookupOrder, refundTool(refunds)]),
    skills,
    guardrails: [piiGuardrail({ redact: true })],
  });
  let systemPrompt = '';
  agent.addHook({
    name: 'capture-system-prompt',
    onEvent: (event) => {
      if (event.type === 'preReasoning') systemPrompt = event.systemPrompt;
    },
  });
  const reply = await lastValueFrom(
    agent.stream(userMsg(REQUEST)).pipe(
      renderEvents({ out }),
      filter((event) => event.type === 'reply'),
      map((event) => event.msg),
    ),
  );
  return { reply, memory: agent.memory.messages(), refunds, systemPrompt };
}

runMain(import.meta.url, main);
