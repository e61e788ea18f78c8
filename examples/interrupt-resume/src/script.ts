import type { ScriptedReply } from '@rxagent/core/testing';
import { latestToolOutputs, toolOutputs } from '@rxagent/example-kit';

// Offline, these scripts play the model. Each part of the program makes its own model, so
// `--resume` in a new process starts the resume script from its first reply. Tool-call ids
// are given explicitly: a fresh model numbering its calls from 1 again would reuse an id of
// the restored conversation, which the API rejects.

const PACE = { chunkDelayMs: 15 } as const;

/** Part 1: the model starts the long full-year scan (which the user then interrupts). */
export function interruptScript(): ScriptedReply[] {
  return [
    {
      ...PACE,
      text: 'Scanning the whole 2024 archive, month by month.',
      toolCalls: [{ id: 'call_full_year', name: 'compile_report', arguments: { year: 2024 } }],
    },
  ];
}

/** Parts 2 and 3: continue with a quicker Q4 scan, then ask to publish (stopped for approval). */
export function resumeScript(): ScriptedReply[] {
  return [
    (request) => {
      const cut = toolOutputs(request).some(({ content }) => content.startsWith('[interrupted]'));
      return {
        ...PACE,
        text: cut ? 'The full-year scan was cut off, so I will scan Q4 only.' : 'Scanning Q4 only.',
        toolCalls: [
          {
            id: 'call_q4',
            name: 'compile_report',
            arguments: { year: 2024, months: [10, 11, 12] },
          },
        ],
      };
    },
    (request) => {
      const [report = ''] = latestToolOutputs(request);
      const [headline, longest] = report.split('\n');
      return { ...PACE, text: `Q4 report: ${headline} ${longest} Shall I publish it?` };
    },
    (request) => {
      const report = toolOutputs(request).findLast(({ content }) =>
        content.includes('incidents ('),
      )?.content;
      return {
        ...PACE,
        text: 'Publishing to #ops.',
        toolCalls: [
          {
            id: 'call_publish',
            name: 'publish_report',
            arguments: { channel: 'ops', title: '2024 Q4 incident report', body: report ?? '' },
          },
        ],
      };
    },
    (request) => {
      const [result = ''] = latestToolOutputs(request);
      return result.startsWith('Published')
        ? { ...PACE, text: `Done. ${result}` }
        : { ...PACE, text: 'Understood, I did not publish the report.' };
    },
  ];
}
