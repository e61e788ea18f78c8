import type { HookEventType } from '../hooks/hookEvent.js';
import type { TapCallOptions } from './eventTap.js';

/** Options of `stream()`: a call's options, and which events to emit. */
export interface StreamOptions extends TapCallOptions {
  /**
   * The hook event types to emit (the final `reply` event always comes); every type when
   * omitted. Events of other types are neither emitted nor built for the stream: leaving out
   * `reasoningChunk` and `actingChunk` keeps a call no hook listens to on its chunk-free path,
   * nearly as cheap as `call()`. Nested agents' events (with `path`) are filtered the same way.
   */
  readonly events?: readonly HookEventType[];
}
