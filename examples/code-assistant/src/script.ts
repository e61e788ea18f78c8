import type { ChatRequest } from '@rxagent/core';
import type { ScriptedReply } from '@rxagent/core/testing';
import { lastToolOutput, toolOutputs } from '@rxagent/example-kit';

/** The file and the two functions the scenario is about. */
export const TARGET = {
  path: 'packages/core/src/message/readers.ts',
  functions: ['textOf', 'toolOutputText'],
} as const;

const EXPLANATION = [
  `- \`textOf(msg)\` joins the text blocks of a message with newlines, skipping thinking, tool and image blocks; a message without text gives "".`,
  `- \`toolOutputText(block)\` turns a tool result's output into text: a string is returned as-is, otherwise the parts are joined by newlines, with images shown as "[image]".`,
].join('\n');

/** Line counts reported by `find_function`, in the order the functions were asked for. */
function lineCounts(request: ChatRequest): number[] {
  return toolOutputs(request)
    .filter((output) => output.name === 'find_function')
    .map((output) => Number(/\((\d+) lines\)/.exec(output.content)?.[1]));
}

/**
 * The scripted model's side of the conversation. It re-reads the file once (the agent
 * answers that identical call with a [duplicate] result instead of running it), takes the
 * line counts from `find_function`, computes only with `calculator`, and its first draft
 * forgets the number, so the judge sends it back.
 */
export function assistantScript(paceMs = 0): ScriptedReply[] {
  const [a, b] = TARGET.functions;
  return [
    {
      text: 'Let me read the file first.',
      toolCalls: [{ name: 'read_file', arguments: { path: TARGET.path } }],
      chunkDelayMs: paceMs,
    },
    {
      text: 'Now I will locate both functions to count their lines.',
      toolCalls: [
        { name: 'read_file', arguments: { path: TARGET.path } },
        { name: 'find_function', arguments: { path: TARGET.path, name: a } },
        { name: 'find_function', arguments: { path: TARGET.path, name: b } },
      ],
      chunkDelayMs: paceMs,
    },
    (request) => {
      const [linesA, linesB] = lineCounts(request);
      return {
        toolCalls: [
          { name: 'calculator', arguments: { expression: `(${linesA} + ${linesB}) * 4 / 2` } },
        ],
      };
    },
    { text: `Here is what the two functions do:\n${EXPLANATION}`, chunkDelayMs: paceMs },
    (request) => {
      const [linesA, linesB] = lineCounts(request);
      const calculation = lastToolOutput(request, 'calculator') ?? '';
      const result = /=\s*(\S+)$/.exec(calculation)?.[1] ?? '?';
      return {
        text:
          `Here is what the two functions do:\n${EXPLANATION}\n` +
          `\`${a}\` spans ${linesA} lines and \`${b}\` ${linesB} lines, so (${linesA} + ${linesB}) × 4 / 2 = **${result}** (computed with the calculator).`,
        chunkDelayMs: paceMs,
      };
    },
  ];
}

/** The offline judge: it rejects the first draft (no number) and passes the second. */
export function judgeScript(): ScriptedReply[] {
  return [
    'FAIL: The draft explains both functions but does not state the result of (lines of textOf + lines of toolOutputText) × 4 / 2. Give the number from the calculator.',
    'PASS',
  ];
}
