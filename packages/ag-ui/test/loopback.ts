import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HttpAgent, RunAgentParameters } from '@ag-ui/client';
import type { BaseEvent, Event } from '@ag-ui/core';
import { EventSchemas } from '@ag-ui/core/schemas';

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
    url: `http://127.0.0.1:${port}/agent`,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** What one client run saw: every event (each validated with AG-UI's schema) and how it ended. */
export interface ClientRun {
  readonly events: Event[];
  readonly error?: unknown;
}

/**
 * Runs `client` once with the real `@ag-ui/client` pipeline (verification, message
 * application); `onEvent` sees each event as it arrives.
 */
export async function runClient(
  client: HttpAgent,
  parameters: RunAgentParameters = {},
  onEvent: (event: Event) => void = () => undefined,
): Promise<ClientRun> {
  const events: Event[] = [];
  try {
    await client.runAgent(parameters, {
      onEvent: ({ event }: { event: BaseEvent }) => {
        const parsed = EventSchemas.parse(event) as Event;
        events.push(parsed);
        onEvent(parsed);
      },
    });
    return { events };
  } catch (error) {
    return { events, error };
  }
}

export function types(events: readonly Event[]): string[] {
  return events.map((event) => event.type);
}
