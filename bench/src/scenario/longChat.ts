import {
  type ChatChunk,
  type ChatModel,
  type ChatRequest,
  SUMMARY_PROMPT,
  Toolkit,
  textOf,
  tool,
  userMsg,
} from '@rxagent/core';
import { ReActAgent, type ReActAgentOptions } from '@rxagent/react-agent';
import { lastValueFrom, type Observable, of } from 'rxjs';
import { z } from 'zod';

/** Characters of every tool result of the long conversation (5 KB). */
export const RESULT_CHARS = 5_000;

/** The system prompt of the long conversation. */
export const LONG_CHAT_PROMPT =
  'You are a research assistant. Read a source for every question and answer in one sentence.';

const PAGE = 'The review covers trials, costs and deployment. '.repeat(
  Math.ceil(RESULT_CHARS / 48),
);

/**
 * One tool whose every result is a 5 KB page, made with `rx` (default: the packages the bench
 * imports; `tools/abCompare.ts` passes a build's own).
 */
export function longChatToolkit(
  rx: { readonly Toolkit: typeof Toolkit; readonly tool: typeof tool } = { Toolkit, tool },
): Toolkit {
  return new rx.Toolkit([
    rx.tool({
      name: 'read_source',
      description: 'Reads the review article about a topic.',
      parameters: z.object({ topic: z.string() }),
      execute: ({ topic }) => `# ${topic}\n${PAGE}`.slice(0, RESULT_CHARS),
    }),
  ]);
}

/** The question of turn `turn`. */
export function longChatQuestion(turn: number): string {
  return `Question ${turn}: what does the review say about topic ${turn % 37}?`;
}

/**
 * The long conversation's agent (`researcher`, the long chat's prompt and toolkit) on a fresh
 * `LongChatModel` unless `options` gives a model, with `options`' other settings (`durable`,
 * `context`…).
 */
export function longChatAgent(options: Partial<ReActAgentOptions> = {}): ReActAgent {
  return new ReActAgent({
    name: 'researcher',
    sysPrompt: LONG_CHAT_PROMPT,
    model: new LongChatModel(),
    toolkit: longChatToolkit(),
    ...options,
  });
}

/** Turns `from` … `to - 1` of the long conversation on `agent`; a wrong answer throws. */
export async function chatTurns(agent: ReActAgent, from: number, to: number): Promise<void> {
  for (let turn = from; turn < to; turn++) {
    const reply = await lastValueFrom(agent.call(userMsg(longChatQuestion(turn))));
    if (!textOf(reply).startsWith('The review covers')) {
      throw new Error(`turn ${turn} answered ${JSON.stringify(textOf(reply))}`);
    }
  }
}

const SUMMARY: ChatChunk[] = [
  { text: 'The user asked about many topics; each review covered trials, costs and deployment.' },
  { finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } },
];
const ANSWER: ChatChunk[] = [
  { text: 'The review covers ' },
  { text: 'trials, costs and deployment.' },
  { finishReason: 'stop' },
];

/**
 * The long conversation's model, in process and stateless (it keeps no request, so the heap
 * holds only what the agents hold): a question gets a `read_source` call, a tool result an
 * answer, a summary request a fixed summary.
 */
export class LongChatModel implements ChatModel {
  readonly modelName = 'long-chat';
  #calls = 0;

  stream(request: ChatRequest): Observable<ChatChunk> {
    const first = request.messages[0];
    if (first?.role === 'system' && first.content === SUMMARY_PROMPT) return of(...SUMMARY);
    const last = request.messages[request.messages.length - 1];
    if (last?.role !== 'user') return of(...ANSWER);
    const id = `call_${++this.#calls}`;
    return of(
      { toolCalls: [{ index: 0, id, name: 'read_source', arguments: '{"topic":"solar"}' }] },
      { finishReason: 'tool_calls' },
    );
  }
}
