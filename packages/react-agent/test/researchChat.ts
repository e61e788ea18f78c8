import {
  type ChatRequest,
  estimateTokens,
  type Msg,
  SUMMARY_PROMPT,
  Toolkit,
  tool,
  userMsg,
} from '@rxagent/core';
import type { ScriptedTurn, StrictOpenAIServer } from '@rxagent/core/testing';
import type { ReActAgent, ReActAgentOptions } from '@rxagent/react-agent';
import { z } from 'zod';
import { harness, run } from './harness.js';

const PAGE = 'x'.repeat(1_600);

/** A tool whose every result is a long page (about 400 tokens by the default counter). */
export function pageTool() {
  return tool({
    name: 'fetch_page',
    description: 'Fetches a page of the research archive.',
    parameters: z.object({ topic: z.string() }),
    execute: ({ topic }) => `Page about ${topic}: ${PAGE}`,
  });
}

/** Whether a request is a context summary request (its system prompt is `SUMMARY_PROMPT`). */
export function isSummaryRequest(request: ChatRequest): boolean {
  const first = request.messages[0];
  return first?.role === 'system' && first.content === SUMMARY_PROMPT;
}

/**
 * The research model: a summary request gets a summary; a turn ending in a user message
 * fetches a page; one ending in a tool result answers.
 */
export function researcher(request: ChatRequest): ScriptedTurn {
  if (isSummaryRequest(request)) {
    return {
      text: 'The user researched several topics.',
      usage: { inputTokens: 1000, outputTokens: 100 },
    };
  }
  const last = request.messages[request.messages.length - 1];
  if (last?.role === 'user') {
    return {
      toolCalls: [{ name: 'fetch_page', arguments: { topic: String(last.content).slice(0, 20) } }],
      usage: { inputTokens: 10, outputTokens: 1 },
    };
  }
  return { text: 'Here is what the page says.', usage: { inputTokens: 10, outputTokens: 1 } };
}

/** Enough replies of `researcher` for any test here. */
export const script = () => Array.from({ length: 200 }, () => researcher);

/** A preReasoning hook recording what each request counts by the default counter. */
export function requestSizes(agent: ReActAgent): number[] {
  const sizes: number[] = [];
  agent.addHook({
    onEvent: (event) => {
      if (event.type !== 'preReasoning') return;
      sizes.push(
        estimateTokens({
          systemPrompt: event.systemPrompt,
          messages: event.messages,
          tools: event.tools,
          selfName: agent.name,
        }),
      );
    },
  });
  return sizes;
}

/** Runs `turns` research questions on a fresh harness agent. */
export async function researchChat(
  options: Partial<ReActAgentOptions>,
  turns: number,
): Promise<{ server: StrictOpenAIServer; agent: ReActAgent; replies: Msg[]; sizes: number[] }> {
  const { server, agent } = await harness(script(), {
    toolkit: new Toolkit([pageTool()]),
    ...options,
  });
  const sizes = requestSizes(agent);
  const replies: Msg[] = [];
  for (let turn = 0; turn < turns; turn++) {
    replies.push(await run(agent, userMsg(`Topic ${turn}: tell me more.`)));
  }
  return { server, agent, replies, sizes };
}

/** Indexes of the messages that replaced older ones. */
export function compressedIndexes(messages: readonly Msg[]): number[] {
  return messages.flatMap((msg, index) => (msg.metadata['compressed'] ? [index] : []));
}
