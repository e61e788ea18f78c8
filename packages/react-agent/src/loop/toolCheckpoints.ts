import type { ToolUseBlock } from '@rxagent/core';
import type { Observable } from 'rxjs';

/** What a tool run of a durable call checkpoints (see `ReActCheckpoints`). */
export interface ToolCheckpoints {
  /** The checkpoint before `call`'s tool runs, marking it started. Cold; one value. */
  beforeTool(call: ToolUseBlock): Observable<void>;
  /**
   * The checkpoint after a stored tool result (queued, not waited for); none after the
   * batch's `last` one, which the step's checkpoint saves.
   */
  afterResult(last: boolean): void;
}
