import type { AgentPart } from '../parts/agentPart.js';
import { checkOffload, type OffloadOptions } from './offloadOptions.js';
import { readResultTool } from './readResultTool.js';
import { ResultOffload } from './resultOffload.js';

/**
 * The `offload` option as a part (checks the option): the `read_result` tool, the store of
 * offloaded results in the agent's state, and each call's `state.offload` (where its tool
 * results go). None without the option.
 */
export function offloadPart(options: {
  readonly name: string;
  readonly offload?: OffloadOptions;
}): AgentPart | undefined {
  const checked = checkOffload(options.name, options.offload);
  if (checked === undefined) return undefined;
  const offload = new ResultOffload(options.name, checked);
  return {
    name: 'offload',
    tools: [readResultTool(offload)],
    state: { key: 'offload', module: offload },
    startCall: (state) => {
      state.offload = offload;
    },
  };
}
