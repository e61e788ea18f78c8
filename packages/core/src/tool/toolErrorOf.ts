import type { ToolResultBlock } from '../message/contentBlock.js';

/** The error each error result was made from, by result block; never part of the block. */
const thrown = new WeakMap<ToolResultBlock, unknown>();

/**
 * The error a tool threw (or its Promise rejected, or its Observable errored with) that
 * `result` was made from, or `undefined` for any other result (a success, a validation
 * error, a timeout, a denial, a copy of the block). The model gets only the result's text;
 * this keeps the error itself (name, message, stack, cause) for hooks and tracers, outside
 * the block, so the block, memory and state stay plain JSON.
 */
export function toolErrorOf(result: ToolResultBlock): unknown {
  return thrown.get(result);
}

/** Records that `result` was made from `error` (see `toolErrorOf`); returns `result`. */
export function withToolError(result: ToolResultBlock, error: unknown): ToolResultBlock {
  thrown.set(result, error);
  return result;
}
