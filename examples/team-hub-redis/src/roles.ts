import type { ChatModel } from '@rxagent/core';
import type { ScriptedReply } from '@rxagent/core/testing';
import {
  BUDGET,
  criticScript,
  plannerScript,
  TEAM_SIZE,
  writerScript,
} from '@rxagent/example-team-hub/src/script.js';
import { createTeam } from '@rxagent/example-team-hub/src/team.js';
import type { ReActAgent } from '@rxagent/react-agent';

/** The three members of the team, in speaking order. */
export const ROLES = ['planner', 'critic', 'writer'] as const;
/** One member of the team. */
export type Role = (typeof ROLES)[number];

/** Who speaks before each role: the planner answers the user's topic. */
export const SPEAKS_AFTER: Record<Role, string> = {
  planner: 'user',
  critic: 'planner',
  writer: 'critic',
};

/** The user's topic, broadcast to the hub to start the round. */
export const TOPIC =
  `Plan a two-day team offsite in Hangzhou for ${TEAM_SIZE} people, one night, ` +
  `budget ${BUDGET} CNY all in (rooms, meeting room, transport from Shanghai).`;

/** The offline script of each role (the team-hub example's). */
export const SCRIPTS: Record<Role, () => ScriptedReply[]> = {
  planner: plannerScript,
  critic: criticScript,
  writer: writerScript,
};

/** Whether `value` names a role. */
export function isRole(value: unknown): value is Role {
  return (ROLES as readonly unknown[]).includes(value);
}

/** The agent that plays `role` on `model` (the same agent the team-hub example builds). */
export function createMember(role: Role, model: ChatModel): ReActAgent {
  return createTeam({ planner: model, critic: model, writer: model })[role];
}
