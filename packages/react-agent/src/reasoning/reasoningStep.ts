import type {
  ChatModel,
  Formatter,
  ModelOptions,
  Msg,
  PostReasoningEvent,
  PreReasoningEvent,
} from '@rxagent/core';
import { concatMap, defer, map, type Observable } from 'rxjs';
import type { ReActCallState } from '../loop/reactCallState.js';
import type { StepHost } from '../loop/stepHost.js';
import { StopSwitch } from '../loop/stopSwitch.js';
import { streamReply } from './streamReply.js';

/** How a reasoning step is set up by its agent. */
export interface ReasoningSetup {
  readonly model: ChatModel;
  readonly modelOptions: ModelOptions;
  readonly parallelToolCalls: boolean | undefined;
  readonly formatter: Formatter;
}

/** The reply of a reasoning step as postReasoning hooks left it, and whether one asked to stop. */
export interface ReasoningOutcome {
  readonly reply: Msg;
  readonly stopRequested: boolean;
}

/**
 * One reasoning step: preReasoning hooks shape the request (for this request only), the
 * model streams the reply, postReasoning hooks may change it. Cold; emits one outcome.
 * Nothing is stored here except a partial reply when the stream is cut.
 */
export function reasoningStep(
  host: StepHost,
  state: ReActCallState,
  setup: ReasoningSetup,
): Observable<ReasoningOutcome> {
  return defer(() => {
    const toolChoice = state.toolChoice;
    state.toolChoice = undefined;
    const event: PreReasoningEvent = {
      type: 'preReasoning',
      agent: host.agent,
      messages: [...host.memory.messages()],
      systemPrompt: state.context.systemPrompt,
      tools: state.toolkit.schemas(),
      toolChoice,
      options: { ...setup.modelOptions },
    };
    return host.notify(event);
  }).pipe(
    concatMap((event) => streamReply(host, state, setup.model, toRequest(event, host.name, setup))),
    concatMap((reply) => {
      const stop = new StopSwitch();
      const event = stop.attach<PostReasoningEvent>(
        { type: 'postReasoning', agent: host.agent, reply },
        host.hasEventListeners(),
      );
      return host
        .notify(event)
        .pipe(map((final) => ({ reply: final.reply, stopRequested: stop.stopped })));
    }),
  );
}

function toRequest(event: PreReasoningEvent, selfName: string, setup: ReasoningSetup) {
  const messages = setup.formatter(event.messages, { systemPrompt: event.systemPrompt, selfName });
  if (event.tools.length === 0) return { messages, options: event.options };
  return {
    messages,
    options: event.options,
    tools: event.tools,
    ...(event.toolChoice !== undefined && { toolChoice: event.toolChoice }),
    ...(setup.parallelToolCalls !== undefined && { parallelToolCalls: setup.parallelToolCalls }),
  };
}
