import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

/** An in-memory tracer for a test, and readers for what it recorded. */
export interface TestTracing {
  readonly provider: BasicTracerProvider;
  readonly exporter: InMemorySpanExporter;
  /** Finished spans, in the order they ended. */
  spans(): ReadableSpan[];
  /** The one finished span named `name` (fails the test when there is not exactly one). */
  span(name: string): ReadableSpan;
  /** The name of `span`'s parent among the finished spans ('(root)' when it has none). */
  parentName(span: ReadableSpan): string;
  /** Removes the global context manager installed for the test. */
  dispose(): void;
}

/**
 * Starts in-memory tracing. With `asyncContext`, an AsyncLocalStorage context manager is
 * installed globally so `context.active()` follows async work, as in a real Node setup.
 */
export function startTracing(options: { asyncContext?: boolean } = {}): TestTracing {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  if (options.asyncContext) {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  }
  const spans = () => exporter.getFinishedSpans();
  const span = (name: string) => {
    const found = spans().filter((candidate) => candidate.name === name);
    if (found.length !== 1) {
      throw new Error(
        `expected one span "${name}", found ${found.length}: ${spans()
          .map((s) => s.name)
          .join(', ')}`,
      );
    }
    return found[0]!;
  };
  return {
    provider,
    exporter,
    spans,
    span,
    parentName: (child) => {
      const parentId = child.parentSpanContext?.spanId;
      if (parentId === undefined) return '(root)';
      return (
        spans().find((candidate) => candidate.spanContext().spanId === parentId)?.name ??
        '(unknown)'
      );
    },
    dispose: () => {
      if (options.asyncContext) context.disable();
    },
  };
}
