import type { Hook, ToolResultBlock } from '@rxagent/core';
import { redactSecrets } from './redactSecrets.js';

/**
 * A postActing hook that redacts secrets from every tool result. postActing runs after the
 * tool and before its result is stored, so neither the model nor memory (nor anything that
 * saves memory to disk) ever sees the secret. `onRedact` reports each redaction.
 *
 * A low priority number runs it before other postActing hooks, so they see clean output too.
 */
export function redactionHook(onRedact?: (tool: string, count: number) => void): Hook {
  return {
    name: 'redact-secrets',
    priority: 10,
    onEvent(event) {
      if (event.type !== 'postActing') return;
      const { result, count } = redactResult(event.result);
      if (count === 0) return;
      onRedact?.(result.name, count);
      event.result = result;
      return event;
    },
  };
}

function redactResult(result: ToolResultBlock): { result: ToolResultBlock; count: number } {
  if (typeof result.output === 'string') {
    const { text, count } = redactSecrets(result.output);
    return { result: { ...result, output: text }, count };
  }
  let total = 0;
  const output = result.output.map((part) => {
    if (part.type !== 'text') return part;
    const { text, count } = redactSecrets(part.text);
    total += count;
    return { ...part, text };
  });
  return { result: { ...result, output }, count: total };
}
