import {
  fanoutPipeline,
  type Msg,
  msgHub,
  sequentialPipeline,
  textOf,
  userMsg,
} from '@rxagent/core';
import { recordTrace } from '@rxagent/eval';
import { chooseModel, runMain, traceArg, writeTracePage } from '@rxagent/example-kit';
import type { ReActAgent } from '@rxagent/react-agent';
import { renderHub } from '@rxagent/terminal';
import { concatMap, defer, lastValueFrom } from 'rxjs';
import { BUDGET, criticScript, plannerScript, TEAM_SIZE, writerScript } from './script.js';
import { createTeam } from './team.js';

/** Where the example prints: a stream, like `process.stdout`. */
export type Out = NodeJS.WritableStream & { readonly isTTY?: boolean };

/** Options of `main`. */
export interface TeamHubOptions {
  /** Where to print (default `process.stdout`). */
  readonly out?: Out;
  /** Environment that selects the model (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
  /** Write a trace page of the run (one lane per agent) to this file (`--trace FILE`). */
  readonly trace?: string;
}

/** What a run produced, for tests and callers. */
export interface TeamHubResult {
  readonly mode: 'offline' | 'live';
  /** planner, critic, writer: their memories show who heard what. */
  readonly agents: readonly ReActAgent[];
  /** The three turns of the sequential round, in speaking order. */
  readonly turns: readonly Msg[];
  /** Who spoke in the messages the writer sent to its model (excluding itself). */
  readonly writerHeard: readonly { name: string; text: string }[];
  /** The fan-out answers, in agent order. */
  readonly fanout: readonly Msg[];
  /** Who finished first in the fan-out round. */
  readonly arrivals: readonly string[];
  /** The trace page written, when `trace` was given. */
  readonly tracePage?: string;
}

const TOPIC =
  `Plan a two-day team offsite in Hangzhou for ${TEAM_SIZE} people, one night, ` +
  `budget ${BUDGET} CNY all in (rooms, meeting room, transport from Shanghai).`;
const QUESTION =
  'Quick round, one sentence each: what is the biggest risk for this offsite from where you stand?';

/**
 * Three agents in a MsgHub: the planner, the critic and the writer speak in turn through a
 * sequential pipeline, each hearing the others (the hub has every participant observe every
 * reply); then all three answer one question at once in a fan-out round.
 */
export async function main(options: TeamHubOptions = {}): Promise<TeamHubResult> {
  const out = options.out ?? process.stdout;
  const planner = chooseModel(plannerScript, options.env);
  const critic = chooseModel(criticScript, options.env);
  const writer = chooseModel(writerScript, options.env);
  out.write(`${planner.banner}\n\n`);

  const team = createTeam({ planner: planner.model, critic: critic.model, writer: writer.model });
  const agents = [team.planner, team.critic, team.writer];
  let fanningOut = false;
  // The concurrent fan-out round is muted: its answers are printed afterwards.
  renderHub(agents, { out, muted: () => fanningOut });
  // The terminal shows the run as it happens; the trace page keeps it, every agent a lane.
  const recording = options.trace === undefined ? undefined : recordTrace(agents);
  const turns: Msg[] = [];
  const arrivals: string[] = [];
  for (const agent of agents) {
    agent.addHook({
      onEvent: (event) => {
        if (event.type !== 'postCall') return;
        if (fanningOut) arrivals.push(event.reply.name);
        else turns.push(event.reply);
      },
    });
  }
  let writerHeard: { name: string; text: string }[] = [];
  const removeSpy = team.writer.addHook({
    onEvent(event) {
      if (event.type !== 'preReasoning') return;
      writerHeard = event.messages
        .filter((msg) => msg.name !== 'writer' && msg.role !== 'tool')
        .map((msg) => ({ name: msg.name, text: textOf(msg) }));
      removeSpy();
    },
  });

  out.write(
    `user: ${TOPIC}\n\n── round 1: the team speaks in turn (sequentialPipeline in a MsgHub)\n`,
  );
  const hub = { participants: agents, announcement: userMsg(TOPIC), name: 'offsite' };
  const fanout = await lastValueFrom(
    msgHub(hub, (room) =>
      sequentialPipeline(agents).pipe(
        concatMap(() =>
          defer(() => {
            printWhoHeardWhat(out, agents, writerHeard);
            out.write(`\n── round 2: fan-out, everyone answers at once\nuser: ${QUESTION}\n`);
            // Independent answers: nobody hears the others while the three calls run at once.
            room.setAutoBroadcast(false);
            fanningOut = true;
            return fanoutPipeline(agents, userMsg(QUESTION));
          }),
        ),
      ),
    ),
  );
  fanningOut = false;
  out.write(`  (answers arrived in the order ${arrivals.join(', ')}; listed in agent order)\n`);
  for (const reply of fanout) out.write(`  ${reply.name}: ${textOf(reply)}\n`);
  const result = { mode: planner.mode, agents, turns, writerHeard, fanout, arrivals };
  if (recording === undefined || options.trace === undefined) return result;
  recording.stop();
  const tracePage = await writeTracePage(
    options.trace,
    recording.entries,
    'team-hub: an offsite plan',
  );
  out.write(`\ntrace page: ${tracePage}\n`);
  return { ...result, tracePage };
}

function printWhoHeardWhat(
  out: Out,
  agents: readonly ReActAgent[],
  writerHeard: readonly { name: string; text: string }[],
): void {
  out.write('\n── who heard what (from each agent’s memory)\n');
  for (const agent of agents) {
    const speakers = agent.memory
      .messages()
      .filter((msg) => msg.name !== agent.name && msg.role !== 'tool')
      .map((msg) => msg.name);
    out.write(`  ${agent.name} heard: ${speakers.join(', ')}\n`);
  }
  out.write('  the writer’s request to its model held:\n');
  for (const { name, text } of writerHeard) {
    out.write(`    ${name.padEnd(8)} “${text.length > 70 ? `${text.slice(0, 69)}…` : text}”\n`);
  }
}

runMain(import.meta.url, () => {
  const trace = traceArg();
  return main(trace === undefined ? {} : { trace });
});
