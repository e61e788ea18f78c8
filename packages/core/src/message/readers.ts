import type { ToolResultBlock, ToolUseBlock } from './contentBlock.js';
import type { Msg } from './msg.js';

// Indexed loops, not for-of, filter or map: a Msg's content array is frozen, and on Node 20
// (V8 11) array builtins that take a callback, and the array iterator, leave their fast path
// on frozen arrays (5-10 times slower per call), while indexing stays as fast.

/** The text blocks of `msg` joined by newlines (`''` when it has none). */
export function textOf(msg: Msg): string {
  const { content } = msg;
  let text = '';
  let first = true;
  for (let index = 0; index < content.length; index++) {
    const block = content[index]!;
    if (block.type !== 'text') continue;
    text = first ? block.text : `${text}\n${block.text}`;
    first = false;
  }
  return text;
}

/** The `tool_use` blocks of `msg`, in order. */
export function toolUses(msg: Msg): ToolUseBlock[] {
  const { content } = msg;
  const uses: ToolUseBlock[] = [];
  for (let index = 0; index < content.length; index++) {
    const block = content[index]!;
    if (block.type === 'tool_use') uses.push(block);
  }
  return uses;
}

/** The `tool_result` blocks of `msg`, in order. */
export function toolResults(msg: Msg): ToolResultBlock[] {
  const { content } = msg;
  const results: ToolResultBlock[] = [];
  for (let index = 0; index < content.length; index++) {
    const block = content[index]!;
    if (block.type === 'tool_result') results.push(block);
  }
  return results;
}

/** The text of a tool result's output (text parts joined by newlines; images as `[image]`). */
export function toolOutputText(block: ToolResultBlock): string {
  if (typeof block.output === 'string') return block.output;
  return block.output.map((part) => (part.type === 'text' ? part.text : '[image]')).join('\n');
}
