import type { ChatRequest } from '@rxagent/core';
import type { ScriptedReply } from '@rxagent/core/testing';
import { latestToolOutputs, wireText } from '@rxagent/example-kit';
import { VENUES } from './venues.js';
import { heardFrom } from './wire.js';

// Offline, each agent's model is played by one of these scripts. The words are scripted, but
// every number in them is read from a real tool result or from what the other agents said.

const PACE = { chunkDelayMs: 12 } as const;

/** The group and budget of the scenario, as the user states them. */
export const TEAM_SIZE = 12;
export const BUDGET = 30_000;

/** The planner: searches venues, then proposes the cheapest room rate with a runner-up. */
export function plannerScript(): ScriptedReply[] {
  return [
    { toolCalls: [{ name: 'find_venues', arguments: { city: 'Hangzhou', people: TEAM_SIZE } }] },
    (request) => {
      const lines = (latestToolOutputs(request)[0] ?? '').split('\n');
      const [first, second] = lines.map((line) => line.split(':')[0]!.trim());
      return {
        ...PACE,
        text:
          `Plan: ${first} (cheapest rooms), 1 night, ${TEAM_SIZE} people. ` +
          `Day 1: train from Shanghai, afternoon roadmap workshop, team dinner. ` +
          `Day 2: morning retro, bike ride, back by 17:00. Runner-up: ${second}.`,
      };
    },
    // The planner thinks longest, so its fan-out answer arrives last but is still listed first.
    (request) => ({ ...PACE, delayMs: 150, text: riskAnswer('planner', request) }),
  ];
}

/** The critic: costs both venues the planner named and recommends the cheaper total. */
export function criticScript(): ScriptedReply[] {
  return [
    (request) => {
      const plan = heardFrom(request, 'planner');
      const named = VENUES.filter((venue) => plan.includes(venue.name)).sort(
        (a, b) => plan.indexOf(a.name) - plan.indexOf(b.name),
      );
      return {
        toolCalls: named.map((venue) => ({
          name: 'estimate_budget',
          arguments: { venue: venue.name, people: TEAM_SIZE, nights: 1, budget: BUDGET },
        })),
      };
    },
    (request) => {
      const costed = latestToolOutputs(request).map(parseEstimate);
      const [best] = [...costed].sort((a, b) => a.total - b.total);
      const planned = costed[0];
      if (!best || !planned) return 'I could not cost the plan; please name the venue exactly.';
      const verdict =
        best.venue === planned.venue
          ? `${planned.venue} is the cheaper total (${planned.total} CNY).`
          : `${planned.venue} costs ${planned.total} CNY in total once its meeting room is paid, ` +
            `but ${best.venue} costs ${best.total} CNY with the room included — switch to ${best.venue}.`;
      return {
        ...PACE,
        text: `Budget check: ${verdict} Both fit the ${BUDGET} CNY budget. Keep the bike ride optional and book the train seats together.`,
      };
    },
    (request) => ({ ...PACE, text: riskAnswer('critic', request) }),
  ];
}

/** The writer: announces the critic's venue and total, and the planner's agenda. */
export function writerScript(): ScriptedReply[] {
  return [
    (request) => {
      const plan = heardFrom(request, 'planner');
      const critique = heardFrom(request, 'critic');
      const venue = /switch to ([^.]+)\./u.exec(critique)?.[1] ?? plan.split(':')[1]?.split('(')[0];
      const total = new RegExp(`${venue?.trim()} costs (\\d+) CNY`, 'u').exec(critique)?.[1];
      const day1 = /Day 1: ([^.]+)\./u.exec(plan)?.[1] ?? 'travel and workshop';
      const day2 = /Day 2: ([^.]+)\./u.exec(plan)?.[1] ?? 'retro';
      return {
        ...PACE,
        text:
          `Team offsite in Hangzhou! We stay at ${venue?.trim()} for one night` +
          `${total ? ` (${total} CNY all in, well under budget)` : ''}. ` +
          `Day 1: ${day1}. Day 2: ${day2}. Train seats are booked together; the bike ride is optional.`,
      };
    },
    (request) => ({ ...PACE, text: riskAnswer('writer', request) }),
  ];
}

function parseEstimate(text: string): { venue: string; total: number } {
  const venue = text.split(':')[0] ?? '';
  const total = Number(/: (\d+) CNY total/u.exec(text)?.[1] ?? Number.NaN);
  return { venue, total };
}

function riskAnswer(role: 'planner' | 'critic' | 'writer', request: ChatRequest): string {
  const question = wireText(request.messages[request.messages.length - 1]!);
  if (!/risk/iu.test(question)) return 'I have nothing to add.';
  switch (role) {
    case 'planner':
      return 'Risk: the Day 1 train is the single point of failure — book a later backup train.';
    case 'critic':
      return `Risk: headcount drift — every extra person adds room and transport costs, so freeze the list of ${TEAM_SIZE} this week.`;
    case 'writer':
      return 'Risk: people skim the announcement — put the station meeting time in the subject line.';
  }
}
