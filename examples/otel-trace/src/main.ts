/**
 * otel-trace: OpenTelemetry tracing of a two-agent pipeline. `otelHook()` from
 * `@rxagent/otel` records GenAI semantic-convention spans (invoke_agent, chat, execute_tool);
 * an in-memory exporter collects them and the program prints the trace as a tree.
 *
 *   npx -y pnpm@10.34.9 --filter @rxagent/example-otel-trace start
 *
 * Offline (default) scripted models play both agents (the tool really runs); with
 * OPENAI_API_KEY or OPENAI_BASE_URL set, both use the real model. To send the spans to a
 * collector instead, see the README (OTLP exporter).
 */
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { sequentialPipeline, Toolkit, textOf, userMsg } from '@rxagent/core';
import { chooseModel, type ExampleOptions, runMain } from '@rxagent/example-kit';
import { otelHook } from '@rxagent/otel';
import { ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom } from 'rxjs';
import { countryFacts } from './countryFacts.js';
import { researcherScript, writerScript } from './script.js';
import { traceTree } from './traceTree.js';

export const QUESTION = 'Write one sentence about Japan: its capital and population.';

/** Runs the pipeline inside a `workflow` span, prints the trace tree, resolves with the spans. */
export async function main(options: ExampleOptions = {}): Promise<ReadableSpan[]> {
  const out = options.out ?? process.stdout;
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  // AsyncLocalStorage lets the agents' calls find the workflow span across async steps.
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  try {
    const hooks = [otelHook({ tracer: provider.getTracer('otel-trace-example') })];
    const researcher = new ReActAgent({
      name: 'researcher',
      sysPrompt: 'Look facts up with country_facts; report them in one line.',
      model: chooseModel(researcherScript, options.env).model,
      toolkit: new Toolkit([countryFacts]),
      hooks,
    });
    const writer = new ReActAgent({
      name: 'writer',
      sysPrompt: "Turn the researcher's note into one fluent sentence.",
      model: chooseModel(writerScript, options.env).model,
      hooks,
    });
    out.write(`${chooseModel(researcherScript, options.env).banner}\n\nuser: ${QUESTION}\n`);

    const tracer = provider.getTracer('otel-trace-example');
    const reply = await tracer.startActiveSpan('workflow', async (span) => {
      try {
        return await lastValueFrom(sequentialPipeline([researcher, writer], userMsg(QUESTION)));
      } finally {
        span.end();
      }
    });
    out.write(`writer: ${textOf(reply)}\n\ntrace:\n${traceTree(exporter.getFinishedSpans())}\n`);
    return exporter.getFinishedSpans();
  } finally {
    context.disable();
    await provider.shutdown();
  }
}

runMain(import.meta.url, main);
