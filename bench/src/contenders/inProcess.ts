import { type ChatChunk, type ChatMessage, type ChatModel, userMsg } from '@rxagent/core';
import { ScriptedChatModel, type ScriptedReply } from '@rxagent/core/testing';
import { ReActAgent, type ReActAgentOptions } from '@rxagent/react-agent';
import { lastValueFrom } from 'rxjs';
import { CALLS_PER_RUN, SYSTEM_PROMPT, scenarioTurn } from '../scenario/conversation.js';
import { benchToolkit, TOOL_SCHEMAS } from '../scenario/tools.js';
import type { Contender } from './contender.js';
import { handWrittenLoop, type LoopTurn } from './handWrittenLoop.js';
import type { LoopMessage } from './wireAccumulator.js';

const reply: ScriptedReply = (request) => scenarioTurn(request.messages);

/** A scripted model playing one conversation (non-strict: validation is the HTTP suites' job). */
export function scriptedModel(): ScriptedChatModel {
  return new ScriptedChatModel(
    Array.from({ length: CALLS_PER_RUN }, () => reply),
    { strict: false },
  );
}

/**
 * rxagent in process: a fresh ReActAgent per conversation, on a model from `model()`, with
 * the options `extra()` adds (hooks, `context` …) for the suites that vary them.
 */
export function rxagentInProcess(
  model: () => ChatModel = scriptedModel,
  extra: () => Partial<ReActAgentOptions> = () => ({}),
  label = 'rxagent',
): Contender {
  const toolkit = benchToolkit();
  return {
    label,
    async run(prompt, signal) {
      const agent = new ReActAgent({
        ...extra(),
        name: 'assistant',
        sysPrompt: SYSTEM_PROMPT,
        model: model(),
        toolkit,
      });
      const answer = await lastValueFrom(agent.call(userMsg(prompt), signal ? { signal } : {}));
      const block = answer.content[0];
      return block?.type === 'text' ? block.text : '';
    },
  };
}

/**
 * The hand-written baseline over the same scripted model: same requests (system prompt,
 * history, tool schemas, an abort signal), the chunks accumulated by hand, both tool calls
 * run in parallel (validated with zod), the same final answer.
 */
export function handLoopInProcess(makeModel: () => ChatModel = scriptedModel): Contender {
  return {
    label: 'hand-written loop',
    run(prompt, signal) {
      const model = makeModel();
      const loopSignal = signal ?? new AbortController().signal;
      return handWrittenLoop('hand-written loop', prompt, (messages) =>
        streamOnce(model, messages, loopSignal),
      );
    },
  };
}

function streamOnce(
  model: ChatModel,
  messages: LoopMessage[],
  signal: AbortSignal,
): Promise<LoopTurn> {
  return new Promise((resolve, reject) => {
    const text: string[] = [];
    const calls: { id: string; name: string; args: string[] }[] = [];
    const add = (chunk: ChatChunk) => {
      if (chunk.text) text.push(chunk.text);
      for (const delta of chunk.toolCalls ?? []) {
        let call = calls[delta.index];
        if (!call) {
          call = { id: '', name: '', args: [] };
          calls[delta.index] = call;
        }
        if (delta.id) call.id = delta.id;
        if (delta.name) call.name += delta.name;
        if (delta.arguments) call.args.push(delta.arguments);
      }
    };
    model
      .stream({ messages: messages as ChatMessage[], tools: [...TOOL_SCHEMAS], signal })
      .subscribe({
        next: add,
        error: reject,
        complete: () =>
          resolve({
            text: text.join(''),
            calls: calls.map((c) => ({ id: c.id, name: c.name, arguments: c.args.join('') })),
          }),
      });
  });
}
