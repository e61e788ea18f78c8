import { SYSTEM_PROMPT } from '../scenario/conversation.js';
import { runBenchTool } from '../scenario/tools.js';
import { MAX_ITERS } from './contender.js';
import { assistantMessage, type LoopMessage, type WireToolCall } from './wireAccumulator.js';

/** What one model call of a hand-written loop streamed: the text and the tool calls. */
export interface LoopTurn {
  readonly text: string;
  readonly calls: readonly WireToolCall[];
}

/**
 * The loop every hand-written baseline runs, around its own way of calling the model
 * (`turn`): system prompt and `prompt` first; after each model call with tool calls, the
 * assistant message and both tool results (run in parallel, validated with zod) appended to
 * the history; the text of the first call without tool calls is the answer.
 */
export async function handWrittenLoop(
  name: string,
  prompt: string,
  turn: (messages: LoopMessage[]) => Promise<LoopTurn>,
): Promise<string> {
  const messages: LoopMessage[] = [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: prompt },
  ];
  for (let step = 0; step < MAX_ITERS; step++) {
    const { text, calls } = await turn(messages);
    if (calls.length === 0) return text;
    messages.push(assistantMessage(text, calls));
    const results = await Promise.all(
      calls.map(async (call) => runBenchTool(call.name, call.arguments)),
    );
    calls.forEach((call, i) => {
      messages.push({ role: 'tool', tool_call_id: call.id, content: results[i]! });
    });
  }
  throw new Error(`${name}: no final answer after MAX_ITERS steps`);
}
