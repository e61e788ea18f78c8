import type { ScriptedReply } from '@rxagent/core/testing';
import { lastToolOutput } from '@rxagent/example-kit';

/**
 * The scripted model's side. It searches the knowledge base and the (hanging) archive at
 * once, reads the top hit, tries a web tool it was never given (the toolkit refuses: the
 * model is limited to the registered tools), and answers from the document it read, as
 * redacted by the hook.
 */
export function kbScript(question: string, paceMs = 0): ScriptedReply[] {
  return [
    {
      text: 'Let me search the knowledge base and the archive.',
      toolCalls: [
        { name: 'search_kb', arguments: { query: question } },
        { name: 'search_archive', arguments: { query: question } },
      ],
      chunkDelayMs: paceMs,
    },
    (request) => {
      const top = /^1\. (\S+)/m.exec(lastToolOutput(request, 'search_kb') ?? '')?.[1] ?? 'unknown';
      return {
        toolCalls: [
          { name: 'read_doc', arguments: { id: top } },
          { name: 'fetch_url', arguments: { url: 'https://wiki.example.com/sales/commission' } },
        ],
      };
    },
    (request) => {
      const doc = lastToolOutput(request, 'read_doc') ?? '';
      const id = /^\[([^\]]+)\]/.exec(doc)?.[1] ?? 'unknown';
      const title = /^# (.+)$/m.exec(doc)?.[1] ?? id;
      const rules = doc.split('\n').filter((line) => line.startsWith('- '));
      const redacted = doc.includes('[REDACTED:internal-url]')
        ? '\nThe commission calculator link is internal, so it was redacted; ask Sales Operations for it.'
        : '';
      return {
        text: `According to "${title}" [${id}]:\n${rules.join('\n')}${redacted}`,
        chunkDelayMs: paceMs,
      };
    },
  ];
}
