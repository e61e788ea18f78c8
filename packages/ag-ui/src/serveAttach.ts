import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AgentHost, OriginPolicy } from '@rxagent/core';
import { openEventStream } from './eventStream.js';
import { RequestRejection, sendRejection } from './requestRejection.js';
import { toAgUiEvents } from './toAgUiEvents.js';

/**
 * Answers `GET …?threadId=<id>` on an AgentHost: the AG-UI events of the run going on in
 * that thread, from its start, then live (`host.attach`), as server-sent events; 204 when
 * nothing runs there, 400 without a thread id, 403 for a foreign origin. A follower that
 * disconnects stops following; the run goes on. Never throws.
 */
export function serveAttach(
  req: IncomingMessage,
  res: ServerResponse,
  host: AgentHost,
  running: ReadonlyMap<string, string>,
  origins: OriginPolicy,
): void {
  if (origins.verdict(req) === 'forbidden') {
    sendRejection(
      res,
      new RequestRejection(403, `Origin ${req.headers.origin} may not follow this agent's runs.`),
    );
    return;
  }
  const threadId = new URL(req.url ?? '/', 'http://localhost').searchParams.get('threadId');
  if (threadId === null || threadId === '') {
    sendRejection(
      res,
      new RequestRejection(400, 'GET ?threadId=<id> to follow the run of a thread.'),
    );
    return;
  }
  const runId = running.get(threadId);
  if (runId === undefined) {
    res.writeHead(204).end();
    return;
  }
  const encoder = openEventStream(res);
  // The events so far replay synchronously on subscription: a failure then ends at once.
  const subscription = toAgUiEvents(host.attach(threadId), { threadId, runId }).subscribe({
    next: (event) => {
      if (res.destroyed || res.writableEnded) return;
      try {
        res.write(encoder.encodeSSE(event));
      } catch {
        res.destroy();
      }
    },
    error: () => res.destroy(),
    complete: () => {
      if (!res.destroyed && !res.writableEnded) res.end();
    },
  });
  if (res.destroyed) subscription.unsubscribe();
  else res.once('close', () => subscription.unsubscribe());
}
