import type { ChatRequest } from '@rxagent/core';
import { SUMMARY_PROMPT } from '@rxagent/core';
import type { ScriptedReply, ScriptedTurn } from '@rxagent/core/testing';
import { lastToolOutput, wireText } from '@rxagent/example-kit';

const FINDING = /Key figure for [^:\n]+: \d+% cost decline since 2015\./g;

/** Every distinct finding quoted anywhere in a request, in order of first appearance. */
function findings(request: ChatRequest): string[] {
  const seen = new Set<string>();
  for (const message of request.messages) {
    for (const match of wireText(message).matchAll(FINDING)) seen.add(match[0]);
  }
  return [...seen];
}

function isSummaryRequest(request: ChatRequest): boolean {
  const first = request.messages[0];
  return first?.role === 'system' && first.content === SUMMARY_PROMPT;
}

function lastUserText(request: ChatRequest): string | undefined {
  const last = request.messages[request.messages.length - 1];
  return last?.role === 'user' && typeof last.content === 'string' ? last.content : undefined;
}

/**
 * The scripted researcher, one function for every request: a summary request gets notes
 * listing every finding it was shown; a research question reads the topic's source; a
 * tool result is answered with the source's key figure; the recap lists every finding it
 * can still see (in the summary or in the recent turns).
 */
function researcher(request: ChatRequest, paceMs: number): ScriptedTurn {
  if (isSummaryRequest(request)) {
    return {
      text: `Research notes so far:\n${findings(request)
        .map((f) => `- ${f}`)
        .join('\n')}`,
    };
  }
  const question = lastUserText(request);
  if (question?.startsWith('Recap')) {
    const found = findings(request);
    return {
      text: `We covered ${found.length} topics:\n${found.map((f) => `- ${f}`).join('\n')}`,
      chunkDelayMs: paceMs,
    };
  }
  const topic = question && /research (.+?)\?/.exec(question)?.[1];
  if (topic !== undefined) {
    return { toolCalls: [{ name: 'read_source', arguments: { topic } }] };
  }
  const source = lastToolOutput(request, 'read_source') ?? '';
  const fact = source.match(FINDING)?.[0] ?? 'The source gave no figure.';
  return { text: `From the review: ${fact}`, chunkDelayMs: paceMs };
}

/** Enough replies for `turns` questions, the recap and every summary on the way. */
export function researchScript(turns: number, paceMs = 0): ScriptedReply[] {
  return Array.from(
    { length: turns * 3 + 4 },
    () => (request: ChatRequest) => researcher(request, paceMs),
  );
}
