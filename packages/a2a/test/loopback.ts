import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Role, type StreamResponse, type Task } from '@a2a-js/sdk';
import { type Client, ClientFactory } from '@a2a-js/sdk/client';
import { newId } from '@rxagent/core';

/** A server on a free loopback port; `close()` also drops open connections. */
export interface Loopback {
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

export async function listen(handler: RequestListener): Promise<Loopback> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** The SDK's own client for the agent at `url` (reads its card). */
export function sdkClient(url: string): Promise<Client> {
  return new ClientFactory().createFromUrl(url);
}

/** A SendMessage request of `text` (or a data part), in `contextId` and optionally on `taskId`. */
export function request(
  content: string | Record<string, unknown>,
  ids: { contextId?: string; taskId?: string } = {},
) {
  const part =
    typeof content === 'string'
      ? { content: { $case: 'text' as const, value: content } }
      : { content: { $case: 'data' as const, value: content } };
  return {
    tenant: '',
    configuration: undefined,
    metadata: undefined,
    message: {
      messageId: newId(),
      contextId: ids.contextId ?? '',
      taskId: ids.taskId ?? '',
      role: Role.ROLE_USER,
      parts: [{ ...part, mediaType: '', filename: '', metadata: undefined }],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
  };
}

/** The task a send result is (fails the test when the agent answered with a message). */
export function asTask(result: unknown): Task {
  if (typeof result !== 'object' || result === null || !('status' in result))
    throw new Error(`expected a task, got ${JSON.stringify(result)}`);
  return result as Task;
}

/** The text of every artifact of `task`, joined. */
export function artifactText(task: Task): string {
  return task.artifacts
    .flatMap((artifact) => artifact.parts)
    .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
    .join('');
}

/** A short label per stream response: `task`, `status:<state>`, `artifact:<text>`. */
export function label(response: StreamResponse): string {
  const payload = response.payload;
  switch (payload?.$case) {
    case 'task':
      return 'task';
    case 'message':
      return 'message';
    case 'statusUpdate':
      return `status:${payload.value.status?.state}`;
    case 'artifactUpdate': {
      const text = payload.value.artifact?.parts
        .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
        .join('');
      return `artifact${payload.value.append ? '+' : ''}${payload.value.lastChunk ? '!' : ''}:${text}`;
    }
    default:
      return 'unknown';
  }
}
