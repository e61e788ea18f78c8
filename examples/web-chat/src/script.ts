import type { ChatMessage, ChatRequest } from '@rxagent/core';
import type { ScriptedReply, ScriptedTurn } from '@rxagent/core/testing';

/** How many model requests one offline conversation can make (the script has no end otherwise). */
const TURNS_PER_CONVERSATION = 500;

/** The words of the offline story, long enough to press Stop while it streams. */
export const STORY =
  'Once upon a time, a small agent lived inside an Observable. Every morning it woke up when ' +
  'someone subscribed, streamed a few thoughts, called a tool or two, and went back to sleep ' +
  'when the reply was done. One day a user asked for a very long story, and the agent began ' +
  'to tell it word by word, carefully, patiently, wondering whether anybody would press the ' +
  'Stop button before the end, because a good agent always stops at once when asked to, ' +
  'leaving its memory tidy and its listeners released, ready for the next question.';

/**
 * The offline model's script: it answers from what the conversation last said, so any
 * number of conversations and questions play out (weather → `get_weather`, booking →
 * `book_hotel`, a story → a long slow answer, anything else → what it can do). Words stream
 * `paceMs` apart; the story at least 120 ms apart, so there is time to stop it.
 */
export function chatScript(paceMs: number): () => ScriptedReply[] {
  const respond = (request: ChatRequest): ScriptedTurn => replyTo(request.messages, paceMs);
  return () => Array.from({ length: TURNS_PER_CONVERSATION }, () => respond);
}

function replyTo(messages: readonly ChatMessage[], paceMs: number): ScriptedTurn {
  const last = messages[messages.length - 1];
  const chunkDelayMs = paceMs;
  if (last?.role === 'tool')
    return afterTool(last.content, callName(messages, last.tool_call_id), chunkDelayMs);
  const question = last?.role === 'user' && typeof last.content === 'string' ? last.content : '';
  const lower = question.toLowerCase();
  const city = cityIn(question);
  if (lower.includes('book')) {
    return { toolCalls: [{ name: 'book_hotel', arguments: { city, nights: 2 } }], chunkDelayMs };
  }
  if (lower.includes('weather')) {
    return {
      text: `Let me check the weather in ${city}.`,
      toolCalls: [{ name: 'get_weather', arguments: { city } }],
      chunkDelayMs,
    };
  }
  if (lower.includes('story')) return { text: STORY, chunkDelayMs: Math.max(paceMs, 120) };
  return {
    text: 'I can check the weather in a city, book a hotel (after you approve it), or tell you a long story you can stop. What would you like?',
    chunkDelayMs,
  };
}

function afterTool(result: string, tool: string | undefined, chunkDelayMs: number): ScriptedTurn {
  if (result.startsWith('[denied]')) {
    return { text: `Understood, I did not book anything (${result.slice(9)}).`, chunkDelayMs };
  }
  if (tool === 'book_hotel') return { text: `Done. ${result}`, chunkDelayMs };
  return { text: `The forecast says: ${result}. Enjoy your day!`, chunkDelayMs };
}

function callName(messages: readonly ChatMessage[], id: string): string | undefined {
  for (const msg of messages) {
    if (msg.role !== 'assistant') continue;
    const call = msg.tool_calls?.find((candidate) => candidate.id === id);
    if (call !== undefined) return call.function.name;
  }
  return undefined;
}

const CITIES = ['Paris', 'London', 'Tokyo', 'Shanghai'];

function cityIn(text: string): string {
  return CITIES.find((city) => text.toLowerCase().includes(city.toLowerCase())) ?? 'Paris';
}
