import type { Toolkit } from '@rxagent/core';
import { checkOffload, type OffloadOptions } from './offloadOptions.js';
import { readResultTool } from './readResultTool.js';
import { ResultOffload } from './resultOffload.js';

/** What the `offload` option adds to an agent: its store of results and the toolkit step. */
export interface AgentOffload {
  /** The agent's offloaded results; `undefined` without the option. */
  readonly offload: ResultOffload | undefined;
  /** The toolkit with `read_result` added (the same toolkit without the option). */
  extend(toolkit: Toolkit): Toolkit;
}

/** The offload collaborator of `new ReActAgent(options)` (checks the option). */
export function agentOffload(options: {
  readonly name: string;
  readonly offload?: OffloadOptions;
}): AgentOffload {
  const checked = checkOffload(options.name, options.offload);
  if (checked === undefined) return { offload: undefined, extend: (toolkit) => toolkit };
  const offload = new ResultOffload(options.name, checked);
  return { offload, extend: (toolkit) => toolkit.extend([readResultTool(offload)]) };
}
