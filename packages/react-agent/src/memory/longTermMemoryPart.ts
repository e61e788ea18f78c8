import type { Agent, HookEvent } from '@rxagent/core';
import type { LongTermMemory } from '@rxagent/memory';
import type { Observable } from 'rxjs';
import type { AgentPart } from '../parts/agentPart.js';
import {
  AgentLongTermMemory,
  type LongTermMemoryMode,
  longTermMemoryMode,
} from './agentLongTermMemory.js';

/**
 * The `longTermMemory` option as a part: the memory tools (not in the `static` mode), the
 * outbox of pending facts in the agent's state, static recall before a fresh call's first
 * request and the observer after its final step (`forCall`), and the facts written once
 * the call ended and its reply is out (`afterCall`). None without the option.
 */
export function longTermMemoryPart(
  options: {
    readonly name: string;
    readonly longTermMemory?: LongTermMemory | undefined;
    readonly longTermMemoryMode?: LongTermMemoryMode | undefined;
  },
  agent: Agent & { readonly isRunning: boolean },
  notify: <E extends HookEvent>(event: E) => Observable<E>,
): AgentPart | undefined {
  if (!options.longTermMemory) return undefined;
  const longTerm = new AgentLongTermMemory(
    options.longTermMemory,
    longTermMemoryMode(options.name, options.longTermMemoryMode),
    agent,
    notify,
  );
  return {
    name: 'longTermMemory',
    tools: longTerm.tools(),
    state: { key: 'longTermMemory', module: longTerm.outbox },
    wrapSteps: (next, state, input, fresh) => longTerm.forCall(state, input, fresh, next),
    endCall: () => longTerm.afterCall(), // the observer's facts, written once the reply is out
  };
}
