import type { ContentBlock } from '../message/contentBlock.js';
import type { Msg } from '../message/msg.js';
import { toolOutputText } from '../message/readers.js';
import type { ChatRequest, ModelOptions } from '../model/chatModel.js';
import { truncateResult } from '../tool/truncateResult.js';

/** The instructions of a summary request (its system message). */
export const SUMMARY_PROMPT = [
  'You compress the beginning of a conversation between a user, an AI assistant and its tools,',
  'so the assistant can continue the work without the original messages.',
  'Write a concise summary that keeps: the facts and figures learned; the decisions made and why;',
  "the user's requests, preferences and constraints; the tasks still open; and the tool results",
  'that may still be needed, quoting exact values (ids, names, numbers, paths, URLs).',
  'Leave out small talk and anything later superseded.',
  'Write plain notes in the third person. Do not answer or address the user, and do not call tools.',
].join(' ');

/** Longest text of one transcript entry; longer ones keep their head and tail. */
const ENTRY_LIMIT = 8_000;

/**
 * The request that asks a model to summarise `messages`. It has no tools, and the messages
 * are rendered as one plain-text transcript inside a single user message (tool calls and
 * results as labelled lines, thinking left out), so the request is valid whatever the
 * messages are, even a tool call whose result is not among them. An entry longer than 8,000
 * characters keeps its head and tail. Pure.
 */
export function summaryRequest(messages: readonly Msg[], options?: ModelOptions): ChatRequest {
  return {
    messages: [
      { role: 'system', content: SUMMARY_PROMPT },
      {
        role: 'user',
        content: `The conversation so far (${messages.length} messages, oldest first):\n\n${transcript(messages)}\n\nSummarise it.`,
      },
    ],
    ...(options !== undefined && { options }),
  };
}

/** `messages` as plain text: one labelled entry per text, tool call and tool result. */
export function transcript(messages: readonly Msg[]): string {
  const entries: string[] = [];
  for (const msg of messages) {
    const speaker = msg.name === msg.role || msg.name === '' ? msg.role : `${msg.role} ${msg.name}`;
    let said: string[] = [];
    const flush = (): void => {
      if (said.length > 0) entries.push(`[${speaker}] ${clip(said.join('\n'))}`);
      said = [];
    };
    for (const block of msg.content) {
      const line = blockLine(block, speaker);
      if (line === undefined) continue;
      if (block.type === 'text' || block.type === 'image') said.push(line);
      else {
        flush();
        entries.push(line);
      }
    }
    flush();
  }
  return entries.join('\n\n');
}

function blockLine(block: ContentBlock, speaker: string): string | undefined {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
      return '[image]';
    case 'tool_use':
      return `[${speaker} calls ${block.name} ${clip(JSON.stringify(block.input))}]`;
    case 'tool_result':
      return `[${block.isError ? 'error from' : 'result of'} ${block.name}] ${clip(toolOutputText(block))}`;
    case 'thinking':
      return undefined;
  }
}

function clip(text: string): string {
  if (text.length <= ENTRY_LIMIT) return text;
  return truncateResult({ type: 'tool_result', id: '', name: '', output: text }, ENTRY_LIMIT).result
    .output as string;
}
