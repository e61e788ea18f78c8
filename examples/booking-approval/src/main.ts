/**
 * booking-approval: approvals that reach into a sub-agent. The travel agent hands a booking
 * to its booking sub-agent (`booking.asTool()`); the booking agent's `pay` tool needs
 * approval, so the travel agent's call stops too, with the nested call pending. The person
 * approves it with an edit (the corporate card instead of the personal one), in fresh agents
 * loaded from a JsonFileSession, and the booking agent goes on inside the travel agent's
 * tool call.
 *
 *   npx -y pnpm@10.34.9 --filter @rxagent/example-booking-approval start
 *
 * Offline (default) a scripted model plays both agents; with OPENAI_API_KEY or
 * OPENAI_BASE_URL set, the same program talks to a real model.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline/promises';
import {
  type AgentEvent,
  isEvent,
  JsonFileSession,
  type JsonObject,
  type Msg,
  replyMetadata,
  type ToolUseBlock,
  toolDecisions,
  userMsg,
} from '@rxagent/core';
import { chooseModel, type ExampleOptions, runMain } from '@rxagent/example-kit';
import { renderEvents } from '@rxagent/terminal';
import { filter, lastValueFrom, map, type Observable } from 'rxjs';
import { type Agents, createAgents } from './agents.js';
import type { Payment } from './flights.js';
import { bookingScript, REQUEST } from './script.js';

/** What the person decides for one pending call. */
export type Decision = 'approve' | 'edit' | 'deny';

/** Options of `main` (see `ExampleOptions`). */
export interface BookingOptions extends ExampleOptions {
  /** Where the two agents are saved while they wait (default: a fresh temporary directory). */
  readonly sessionDir?: string;
  /**
   * Decides a pending call. Default: asks in a terminal; otherwise edits every `pay` call
   * to use the corporate card and approves the rest.
   */
  readonly decide?: (call: ToolUseBlock, path: readonly string[]) => Decision | Promise<Decision>;
}

/** What a run did. */
export interface BookingResult {
  /** The travel agent's reply that stopped for approval. */
  readonly stopped: Msg;
  /** The calls that waited, nested ones included. */
  readonly pending: readonly ToolUseBlock[];
  /** The travel agent's last reply. */
  readonly reply: Msg;
  /** The payments made. */
  readonly payments: readonly Payment[];
  /** The agents that finished the run (loaded from the session). */
  readonly agents: Agents;
}

/** Who decides, as recorded in each decided result's `metadata.decision.by`. */
export const APPROVER = 'ana.silva@example.com';
const CORPORATE_CARD = 'corporate-amex';

/** The path of agents a pending call was made in, outermost first. */
export function pathOf(call: ToolUseBlock): readonly string[] {
  const path = (call as { metadata?: { path?: unknown } }).metadata?.path;
  return Array.isArray(path) ? path.map(String) : [];
}

/** Runs the example once. */
export async function main(options: BookingOptions = {}): Promise<BookingResult> {
  const out = options.out ?? process.stdout;
  const { model, banner } = chooseModel(() => bookingScript(options.paceMs ?? 15), options.env);
  out.write(`${banner}\n\nuser: ${REQUEST}\n`);
  const session = new JsonFileSession(
    options.sessionDir ?? (await mkdtemp(join(tmpdir(), 'booking-approval-'))),
  );
  const decide = options.decide ?? defaultDecide(out);
  const payments: Payment[] = [];
  let agents = createAgents(model, payments);

  const stopped = await replyOf(agents.travel.stream(userMsg(REQUEST)), out);
  const allPending: ToolUseBlock[] = [];
  let reply = stopped;
  // A real model may ask more than once (a second payment, a retry): decide each stop.
  for (
    let round = 0;
    round < 5 && replyMetadata(reply).generateReason === 'approval_required';
    round++
  ) {
    const meta = replyMetadata(reply);
    const waiting = new Set(meta.approvalRequired ?? []);
    const pending = (meta.pendingToolCalls ?? []).filter((call) => waiting.has(call.id));
    allPending.push(...pending);

    // Both agents wait in the session: the decision could come from another process.
    await session.save('travel', agents.travel.stateDict());
    await session.save('booking', agents.booking.stateDict());
    agents = createAgents(model, payments);
    agents.travel.loadStateDict((await session.load('travel'))!);
    agents.booking.loadStateDict((await session.load('booking'))!);

    const approve: string[] = [];
    const deny: Record<string, string> = {};
    const edit: Record<string, JsonObject> = {};
    for (const call of pending) {
      const path = pathOf(call);
      out.write(
        `\nwaiting for approval: ${path.join(' › ') || agents.travel.name} › ${call.name} ${JSON.stringify(call.input)}\n`,
      );
      const decision = await decide(call, path);
      out.write(
        `decision: ${decision}${decision === 'edit' ? ` (card → ${CORPORATE_CARD})` : ''}\n\n`,
      );
      if (decision === 'approve') approve.push(call.id);
      else if (decision === 'deny') deny[call.id] = 'The traveller declined this payment.';
      else edit[call.id] = { ...(call.input as JsonObject), card: CORPORATE_CARD };
    }
    reply = await replyOf(
      agents.travel.stream(toolDecisions({ approve, deny, edit, by: APPROVER })),
      out,
    );
  }
  await session.save('travel', agents.travel.stateDict());
  await session.save('booking', agents.booking.stateDict());
  return { stopped, pending: allPending, reply, payments, agents };
}

function defaultDecide(out: NodeJS.WritableStream): NonNullable<BookingOptions['decide']> {
  const interactive = process.stdin.isTTY === true && (out as { isTTY?: boolean }).isTTY === true;
  return async (call) => {
    if (!interactive) return call.name === 'pay' ? 'edit' : 'approve';
    const prompt = createInterface({ input: process.stdin, output: out });
    try {
      const answer = await prompt.question(
        call.name === 'pay'
          ? `[a]pprove, [e]dit (pay with ${CORPORATE_CARD}) or [d]eny? `
          : '[a]pprove or [d]eny? ',
      );
      const key = answer.trim().toLowerCase()[0];
      return key === 'd' ? 'deny' : key === 'e' && call.name === 'pay' ? 'edit' : 'approve';
    } finally {
      prompt.close();
    }
  };
}

function replyOf(events: Observable<AgentEvent>, out: NodeJS.WritableStream): Promise<Msg> {
  return lastValueFrom(
    events.pipe(
      renderEvents({ out }),
      filter((event) => isEvent(event, 'reply')),
      map((event) => event.msg),
    ),
  );
}

runMain(import.meta.url, () => main());
