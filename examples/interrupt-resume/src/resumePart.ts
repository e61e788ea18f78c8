import { type Msg, textOf, toolResults, toolUses, userMsg } from '@rxagent/core';
import { chooseModel } from '@rxagent/example-kit';
import type { ReActAgent } from '@rxagent/react-agent';
import { renderEvents } from '@rxagent/terminal';
import { filter, lastValueFrom, map } from 'rxjs';
import { save } from './interruptPart.js';
import { createAssistant, type RunContext, SESSION_KEY, shortPath } from './runContext.js';
import { resumeScript } from './script.js';

/** What part 2 did. */
export interface ResumeOutcome {
  /** A fresh agent, restored from the session file, that then continued the conversation. */
  readonly agent: ReActAgent;
  /** The messages of the first model request after loading (memory plus the new user turn). */
  readonly firstRequest: readonly Msg[];
  readonly reply: Msg;
}

/**
 * Part 2: a fresh agent (as a new process would have) loads the saved state and continues
 * the conversation; its first model request holds the earlier turns, the `[interrupted]`
 * tool result included, so the model knows what happened.
 */
export async function resumePart(context: RunContext, banner: boolean): Promise<ResumeOutcome> {
  const { out, session } = context;
  const choice = chooseModel(resumeScript, context.env);
  if (banner) out.write(`${choice.banner}\n`);
  out.write('\n── part 2: a new agent loads the session and continues\n');
  const saved = await session.load(SESSION_KEY);
  if (saved === undefined) {
    throw new Error(
      `No saved conversation at ${session.pathFor(SESSION_KEY)}: run once without --resume first.`,
    );
  }
  const agent = createAssistant(choice.model, context);
  agent.loadStateDict(saved);
  context.log('loaded');
  out.write(
    `loaded ${agent.memory.size} messages from ${shortPath(session.pathFor(SESSION_KEY))}\n`,
  );

  let firstRequest: readonly Msg[] = [];
  const removeSpy = agent.addHook({
    onEvent(event) {
      if (event.type !== 'preReasoning') return;
      firstRequest = [...event.messages];
      removeSpy();
    },
  });
  const request = 'Sorry for cutting you off, that was slow. Just do Q4 please.';
  out.write(`user: ${request}\n`);
  const reply = await lastValueFrom(
    agent.stream(userMsg(request)).pipe(
      renderEvents({ out }),
      filter((event) => event.type === 'reply'),
      map((event) => event.msg),
    ),
  );
  out.write('the first request after loading sent the model:\n');
  for (const msg of firstRequest) out.write(`  ${describe(msg)}\n`);
  await save(agent, context);
  return { agent, firstRequest, reply };
}

function describe(msg: Msg): string {
  const calls = toolUses(msg).map((call) => `→ ${call.name}(${JSON.stringify(call.input)})`);
  const results = toolResults(msg).map((result) => `${result.name}: ${String(result.output)}`);
  const text = [textOf(msg), ...calls, ...results].filter(Boolean).join(' ');
  return `${msg.role.padEnd(9)} ${text.length > 90 ? `${text.slice(0, 89)}…` : text}`;
}
