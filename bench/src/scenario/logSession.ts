import * as core from '@rxagent/core';
import { z } from 'zod';

/** The services whose logs the session reads, and where each one's error line sits. */
const SERVICES = [
  { name: 'api', errorAt: 40 },
  { name: 'db', errorAt: 90 }, // past the first page: the agent reads on to find it
  { name: 'worker', errorAt: 20 },
] as const;

/** A log of 1,500 lines (about 80 KB), one of them an ERROR. */
export function serviceLog(service: string, errorAt: number): string {
  return Array.from({ length: 1_500 }, (_, i) =>
    i === errorAt
      ? `2026-12-06T10:${String(i % 60).padStart(2, '0')}:00Z ERROR ${service}: connection pool exhausted (code ${service.length * 7})`
      : `2026-12-06T10:${String(i % 60).padStart(2, '0')}:00Z INFO ${service}: request ${i} served in ${(i * 13) % 97} ms`,
  ).join('\n');
}

/** The tool `fetch_logs({ service })`. */
export function logToolkit(): core.Toolkit {
  return new core.Toolkit([
    core.tool({
      name: 'fetch_logs',
      description: 'Returns the recent log of a service.',
      parameters: z.object({ service: z.string() }),
      execute: ({ service }) =>
        serviceLog(service, SERVICES.find((s) => s.name === service)?.errorAt ?? -1),
    }),
  ]);
}

const ERROR = /ERROR [^\n]*/gu;
const NOTICE = /read_result\(\{"handle":"([^"]+)","offset":(\d+)\}\)/u;

/**
 * The scripted model of the log session, one decision per request from what the request
 * shows: fetch each service's log in turn; when a result was offloaded and showed no ERROR,
 * read on (`read_result`, page after page) until one shows; then answer with every ERROR
 * line seen. With or without offloading it gives the same answer.
 */
export function logDecision(request: core.ChatRequest): {
  text?: string;
  toolCalls?: { name: string; arguments: core.JsonObject }[];
} {
  const names = new Map<string, string>();
  let fetched = 0;
  for (const m of request.messages) {
    if (m.role !== 'assistant') continue;
    for (const call of m.tool_calls ?? []) {
      names.set(call.id, call.function.name);
      if (call.function.name === 'fetch_logs') fetched++;
    }
  }
  const errors: string[] = [];
  // The offloaded result being read: its handle and where the next page starts.
  let reading: { handle: string; next: number } | undefined;
  for (const m of request.messages) {
    if (m.role !== 'tool') continue;
    const text = String(m.content);
    const found = text.match(ERROR) ?? [];
    errors.push(...found);
    const notice = NOTICE.exec(text);
    if (names.get(m.tool_call_id) === 'read_result' && reading)
      reading = found.length > 0 ? undefined : { ...reading, next: reading.next + text.length };
    else if (notice)
      reading = found.length > 0 ? undefined : { handle: notice[1]!, next: Number(notice[2]) };
  }
  if (reading)
    return {
      toolCalls: [
        { name: 'read_result', arguments: { handle: reading.handle, offset: reading.next } },
      ],
    };
  if (fetched < SERVICES.length)
    return { toolCalls: [{ name: 'fetch_logs', arguments: { service: SERVICES[fetched]!.name } }] };
  return { text: `Errors found:\n${[...new Set(errors)].join('\n')}` };
}
