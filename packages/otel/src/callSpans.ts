import type { Context, Span } from '@opentelemetry/api';

/** The open spans of one agent call: the call's own, its model request, its tool runs. */
export interface CallSpans {
  readonly span: Span;
  /** The context whose active span is `span`: the parent of the call's child spans. */
  readonly context: Context;
  /**
   * False when `span` came from a no-op tracer (not recording, no valid trace id): nothing
   * under it can be exported, so the call's requests and tools record nothing.
   */
  readonly live: boolean;
  /** The model request in flight (reasoning or summary), if any. */
  chat: Span | undefined;
  /** Tool runs in flight, by tool-call id. */
  readonly tools: Map<string, Span>;
}
