import type { ToolResultBlock, ToolUseBlock } from './contentBlock.js';
import type { Msg } from './msg.js';

/** The text blocks of `msg` joined by newlines (`''` when it has none). */
export function textOf(msg: Msg): string {
  let text = '';
  let first = true;
  for (const block of msg.content) {
    if (block.type !== 'text') continue;
    text = first ? block.text : `${text}\n${block.text}`;
    first = false;
  }
  return text;
}

/** The `tool_use` blocks of `msg`, in order. */
export function toolUses(msg: Msg): ToolUseBlock[] {
  return msg.content.filter((block): block is ToolUseBlock => block.type === 'tool_use');
}

/** The `tool_result` blocks of `msg`, in order. */
export function toolResults(msg: Msg): ToolResultBlock[] {
  return msg.content.filter((block): block is ToolResultBlock => block.type === 'tool_result');
}

/** The text of a tool result's output (text parts joined by newlines; images as `[image]`). */
export function toolOutputText(block: ToolResultBlock): string {
  if (typeof block.output === 'string') return block.output;
  return block.output.map((part) => (part.type === 'text' ? part.text : '[image]')).join('\n');
}
