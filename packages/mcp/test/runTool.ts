import type { JsonObject, Toolkit, ToolResultBlock } from '@rxagent/core';
import { filter, lastValueFrom, map } from 'rxjs';

/** Runs one tool call through `toolkit` (validation included) and resolves its result block. */
export function runTool(
  toolkit: Toolkit,
  name: string,
  input: JsonObject,
  signal: AbortSignal = new AbortController().signal,
): Promise<ToolResultBlock> {
  return lastValueFrom(
    toolkit.execute({ id: 'call_1', name, input }, { signal, toolCallId: 'call_1' }).pipe(
      filter((event) => event.type === 'result'),
      map((event) => event.result),
    ),
  );
}
