import type { ToolChoice } from './chatModel.js';

/** OpenAI's wire form of `tool_choice`. */
export type WireToolChoice =
  | 'auto'
  | 'none'
  | 'required'
  | { type: 'function'; function: { name: string } };

/** Maps a provider-neutral `ToolChoice` to OpenAI's `tool_choice`. */
export function toWireToolChoice(choice: ToolChoice): WireToolChoice {
  return typeof choice === 'string'
    ? choice
    : { type: 'function', function: { name: choice.name } };
}
