/**
 * support-desk: handoffs and agents as tools. A triage agent hands each ticket to the
 * billing or the technical desk (`handoffs` on the ReActAgent, followed by
 * `handoffPipeline`); the technical desk consults a researcher agent through
 * `researcher.asTool()`, whose answer streams indented under the tool call.
 *
 *   npx -y pnpm@10.34.9 --filter @rxagent/example-support-desk start
 *
 * Offline (default) scripted models play the four agents (the tools really run); with
 * OPENAI_API_KEY or OPENAI_BASE_URL set, all four use the real model.
 */
import { handoffPipeline, type Msg, userMsg } from '@rxagent/core';
import { chooseModel, type ExampleOptions, runMain } from '@rxagent/example-kit';
import { renderHub } from '@rxagent/terminal';
import { lastValueFrom } from 'rxjs';
import { createDesk, type Desk } from './desk.js';
import {
  billingScript,
  researcherScript,
  TICKETS,
  technicalScript,
  triageScript,
} from './script.js';

/** What a run produced, for tests and callers. */
export interface SupportDeskResult {
  readonly mode: 'offline' | 'live';
  readonly desk: Desk;
  /** The last reply of each ticket, with `metadata.handoffPath`. */
  readonly replies: readonly Msg[];
}

/** Runs every ticket through the desk: triage first, then whichever desk it hands off to. */
export async function main(options: ExampleOptions = {}): Promise<SupportDeskResult> {
  const out = options.out ?? process.stdout;
  const choose = (script: Parameters<typeof chooseModel>[0]) => chooseModel(script, options.env);
  const triage = choose(triageScript);
  const desk = createDesk({
    triage: triage.model,
    billing: choose(billingScript).model,
    technical: choose(technicalScript).model,
    researcher: choose(researcherScript(options.paceMs ?? 15)).model,
  });
  out.write(`${triage.banner}\n`);
  // The researcher is not rendered itself: it shows through the technical desk's tool call.
  renderHub([desk.triage, desk.billing, desk.technical], { out });
  const replies: Msg[] = [];
  for (const ticket of TICKETS) {
    out.write(`\nuser: ${ticket}\n`);
    const agents = [desk.triage, desk.billing, desk.technical];
    const reply = await lastValueFrom(handoffPipeline(agents, userMsg(ticket)));
    const path = (reply.metadata['handoffPath'] as string[] | undefined) ?? [];
    out.write(`answered by ${reply.name} · path: ${path.join(' → ')}\n`);
    replies.push(reply);
  }
  return { mode: triage.mode, desk, replies };
}

runMain(import.meta.url, main);
