import type { ScriptedReply } from '@rxagent/core/testing';
import { lastToolOutput } from '@rxagent/example-kit';

/**
 * What the scripted model "says" offline. Only its words are scripted: the sum in the answer
 * is read from the MCP server's real `get-sum` result in the request.
 */
export function mcpScript(paceMs = 0): ScriptedReply[] {
  return [
    {
      chunkDelayMs: paceMs,
      text: "I'll add them with the server's get-sum tool.",
      toolCalls: [{ name: 'get-sum', arguments: { a: 1234, b: 5678 } }],
    },
    (request) => {
      const result = lastToolOutput(request, 'get-sum') ?? '';
      const sum = /(-?\d+(?:\.\d+)?)\s*\.?$/.exec(result.trim())?.[1] ?? '(no result)';
      return { text: `1234 + 5678 = ${sum}, computed by the MCP server.`, chunkDelayMs: paceMs };
    },
  ];
}
