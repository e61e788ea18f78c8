import { type ChatModel, Toolkit } from '@rxagent/core';
import { ReActAgent } from '@rxagent/react-agent';
import { estimateBudget, findVenues } from './venues.js';

/** The three members of the offsite team, in speaking order. */
export interface Team {
  readonly planner: ReActAgent;
  readonly critic: ReActAgent;
  readonly writer: ReActAgent;
}

/** Creates the planner (finds venues), the critic (costs them) and the writer (no tools). */
export function createTeam(models: {
  planner: ChatModel;
  critic: ChatModel;
  writer: ChatModel;
}): Team {
  const planner = new ReActAgent({
    name: 'planner',
    sysPrompt:
      'You are the planner of a team offsite. Call find_venues, then propose a concrete plan in under 80 words: ' +
      'the venue (cheapest room rate that fits), a one-line agenda for Day 1 and Day 2, and a runner-up venue by its exact name.',
    model: models.planner,
    toolkit: new Toolkit([findVenues]),
  });
  const critic = new ReActAgent({
    name: 'critic',
    sysPrompt:
      "You are the critic of the team. Cost the planner's venue and its runner-up with estimate_budget (1 night, the group size and budget the user gave), " +
      'then in under 70 words say which total is cheaper and why, and give at most two concrete improvements.',
    model: models.critic,
    toolkit: new Toolkit([estimateBudget]),
  });
  const writer = new ReActAgent({
    name: 'writer',
    sysPrompt:
      'You are the writer of the team. Turn the plan and the critique you heard into a short, friendly announcement ' +
      "for the whole team (under 80 words), using the venue and total cost the critic recommends and the planner's agenda.",
    model: models.writer,
  });
  return { planner, critic, writer };
}
