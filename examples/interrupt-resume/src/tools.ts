import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Tool, tool } from '@rxagent/core';
import { Observable } from 'rxjs';
import { z } from 'zod';
import { type Incident, incidentsIn, monthName, summarize } from './incidents.js';

const compileArgs = z.object({
  year: z.number().int().describe('The year to report on, e.g. 2024'),
  months: z
    .array(z.number().int().min(1).max(12))
    .optional()
    .describe('Months to scan (1-12); all twelve when omitted. Each month takes a while.'),
});

/**
 * The long task: scans the archive one month at a time (`monthMs` each), streaming progress
 * as it goes, and returns the report. It stops at once when its run is cancelled (an
 * interrupt unsubscribes it), so nothing keeps scanning in the background. `onProgress`
 * hears each scanned month.
 */
export function compileReportTool(
  monthMs: number,
  onProgress: (progress: string) => void = () => {},
): Tool<z.infer<typeof compileArgs>> {
  return tool({
    name: 'compile_report',
    description:
      'Compile an incident report for a year from the incident archive (slow: it scans month by month).',
    parameters: compileArgs,
    execute: ({ year, months }) => {
      const wanted = [...new Set(months ?? [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])].sort(
        (a, b) => a - b,
      );
      return new Observable<string>((subscriber) => {
        const found: Incident[] = [];
        let next = 0;
        const timer = setInterval(() => {
          const month = wanted[next++]!;
          const incidents = incidentsIn(year, month);
          found.push(...incidents);
          const progress = `scanned ${monthName(month)} ${year}: ${incidents.length} incident(s)`;
          onProgress(progress);
          // A line each: a tool's chunks are one text stream.
          subscriber.next(`${progress}\n`);
          if (next === wanted.length) {
            subscriber.next(summarize(year, wanted, found));
            subscriber.complete();
          }
        }, monthMs);
        return () => clearInterval(timer);
      });
    },
  });
}

const publishArgs = z.object({
  channel: z.string().describe('Channel name without "#", e.g. "ops"'),
  title: z.string(),
  body: z.string().describe('The report text to publish'),
});

/**
 * The sensitive action: "publishes" a report by writing it to `outbox/<channel>.md` under
 * `dir`. Every call waits for a human (`needsApproval: true`): the agent's call ends with
 * `generateReason: 'approval_required'` before it runs. `onRun` is told each time it really
 * runs, so the approval flow can be checked.
 */
export function publishReportTool(
  dir: string,
  onRun: (file: string) => void,
): Tool<z.infer<typeof publishArgs>> {
  return tool({
    name: 'publish_report',
    description: 'Publish a report to a team channel (everyone in the channel sees it).',
    parameters: publishArgs,
    dedupe: false,
    needsApproval: true,
    execute: async ({ channel, title, body }) => {
      const slug =
        channel
          .replace(/^#/u, '')
          .toLowerCase()
          .replace(/[^a-z0-9-]+/gu, '-') || 'general';
      const outbox = join(dir, 'outbox');
      await mkdir(outbox, { recursive: true });
      const file = join(outbox, `${slug}.md`);
      await writeFile(file, `# ${title}\n\n${body}\n`, 'utf8');
      onRun(file);
      return `Published "${title}" to #${slug} (${body.length} characters, saved as outbox/${slug}.md).`;
    },
  });
}
