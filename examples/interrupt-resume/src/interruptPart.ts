import { type AgentEvent, type Msg, userMsg } from '@rxagent/core';
import { chooseModel } from '@rxagent/example-kit';
import type { ReActAgent } from '@rxagent/react-agent';
import { renderEvents } from '@rxagent/terminal';
import {
  filter,
  finalize,
  lastValueFrom,
  map,
  type Observable,
  race,
  Subject,
  type Subscription,
  tap,
  timer,
} from 'rxjs';
import { createAssistant, type RunContext, SESSION_KEY, shortPath } from './runContext.js';
import { interruptScript } from './script.js';
import { keypress } from './userInput.js';

/** What part 1 did. */
export interface InterruptOutcome {
  readonly reply: Msg;
  /** When the long tool started, when the interrupt was made, when the call had ended (ms since start). */
  readonly toolStartedAt: number;
  readonly interruptedAt: number;
  readonly endedAt: number;
  readonly monthsScanned: number;
  readonly sessionFile: string;
}

/** In a terminal the user may not press a key; the scan still gets cut before it ends. */
const INTERACTIVE_FALLBACK_MS = 3_000;

/**
 * Part 1: the user asks for the full-year report, the model starts the slow scan, and the
 * user interrupts it (a keypress in a terminal, else a timer). The tool stops at once, the
 * conversation keeps an `[interrupted]` result for it, and the agent's state is saved.
 */
export async function interruptPart(
  context: RunContext,
  banner: boolean,
): Promise<InterruptOutcome> {
  const { out } = context;
  const choice = chooseModel(interruptScript, context.env);
  if (banner) out.write(`${choice.banner}\n`);
  const agent = createAssistant(choice.model, context);
  out.write('\n── part 1: a long task, interrupted\n');
  const request = 'Compile the 2024 incident report from the archive.';
  out.write(`user: ${request}\n`);

  let toolStartedAt = Number.NaN;
  let interruptedAt = Number.NaN;
  let trigger: Subscription | undefined;
  // The hint goes through the renderer, which erases its spinner first (in a terminal).
  const notes = new Subject<string>();
  const arm = (): void => {
    toolStartedAt = context.now();
    context.log('compile_report started');
    notes.next(interruptPrompt(context));
    trigger = interruptTrigger(context).subscribe(() => {
      interruptedAt = context.now();
      context.log('interrupt');
      agent.interrupt();
    });
  };
  const reply = await lastValueFrom(
    agent.stream(userMsg(request)).pipe(
      renderEvents({ out, notes }),
      tap((event) => {
        if (isToolStart(event, 'compile_report')) arm();
      }),
      filter((event) => event.type === 'reply'),
      map((event) => event.msg),
      finalize(() => trigger?.unsubscribe()),
    ),
  );
  const endedAt = context.now();
  const monthsScanned = context.timeline.filter(
    ({ at, what }) => what.startsWith('scanned') && at >= toolStartedAt,
  ).length;
  out.write(outcomeLine(reply, endedAt - toolStartedAt, monthsScanned, context));
  const sessionFile = await save(agent, context);
  return { reply, toolStartedAt, interruptedAt, endedAt, monthsScanned, sessionFile };
}

/** Saves the agent's whole state (memory and toolkit) and says where. */
export async function save(agent: ReActAgent, context: RunContext): Promise<string> {
  await context.session.save(SESSION_KEY, agent.stateDict());
  const file = context.session.pathFor(SESSION_KEY);
  context.log('saved');
  context.out.write(`saved ${agent.memory.size} messages to ${shortPath(file)}\n`);
  return file;
}

function outcomeLine(reply: Msg, ms: number, months: number, context: RunContext): string {
  if (Number.isNaN(ms))
    return 'the model answered without starting the long scan: nothing to interrupt\n';
  if (reply.metadata['generateReason'] !== 'interrupted') {
    return `the scan finished before the interrupt (${months} months scanned)\n`;
  }
  const full = seconds(12 * context.monthMs);
  return `interrupted ${seconds(ms)} into a scan that needs ${full} (${months} of 12 months scanned)\n`;
}

function interruptTrigger(context: RunContext): Observable<unknown> {
  if (!context.interactive) return timer(context.interruptAfterMs);
  return race(keypress(context.input), timer(INTERACTIVE_FALLBACK_MS));
}

function interruptPrompt(context: RunContext): string {
  return context.interactive
    ? `(press any key to interrupt; it interrupts itself after ${seconds(INTERACTIVE_FALLBACK_MS)})\n`
    : `(not a terminal: a timer interrupts in ${seconds(context.interruptAfterMs)})\n`;
}

function isToolStart(event: AgentEvent, name: string): boolean {
  return event.type === 'preActing' && event.toolCall.name === name;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
