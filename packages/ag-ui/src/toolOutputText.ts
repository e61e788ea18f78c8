import type { ToolResultBlock } from '@rxagent/core';

/** The text of a tool result's output: a string as is, text parts joined, images as their URL. */
export function toolOutputText(output: ToolResultBlock['output']): string {
  if (typeof output === 'string') return output;
  return output.map((part) => (part.type === 'text' ? part.text : `[image: ${part.url}]`)).join('');
}
