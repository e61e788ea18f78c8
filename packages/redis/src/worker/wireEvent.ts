import { type Agent, type AgentEvent, freezeJson, type JsonObject, type Msg } from '@rxagent/core';

/** What a run's stream carries besides the agent's events. */
export type WireControl =
  | { readonly type: 'heartbeat' }
  | { readonly type: 'observed' }
  | { readonly type: 'failed'; readonly error: WireError };

/** An error as it crosses processes: its name, message and code. */
export interface WireError {
  readonly name: string;
  readonly message: string;
  readonly code?: string;
  /**
   * For a run given up after `maxDeliveries` (`name` `'DeliveryLimitError'`): how many
   * times its request was delivered.
   */
  readonly deliveries?: number;
}

/** An error as JSON: name, message and (an AgentError's) code. */
export function wireError(error: unknown): WireError {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return {
      name: error.name,
      message: error.message,
      ...(typeof code === 'string' && { code }),
    };
  }
  return { name: 'Error', message: String(error) };
}

/**
 * One event of a run as JSON text: the agent becomes its name, an error event's error its
 * name, message and code; controls (stopAgent, deny) are dropped.
 */
export function encodeEvent(event: AgentEvent | WireControl): string {
  if (!('agent' in event)) return JSON.stringify(event);
  const plain: Record<string, unknown> = { ...event, agent: (event.agent as Agent).name };
  if (event.type === 'error') plain['error'] = wireError(event.error);
  return JSON.stringify(plain);
}

/** A decoded event of a run's stream, its `agent` a name. */
export type DecodedEvent =
  | (JsonObject & { readonly type: string; readonly agent?: string })
  | WireControl;

/**
 * Parses one event of a run's stream, frozen all through (the Msgs it carries reach hooks,
 * `stream()` subscribers and the caller, which get only frozen Msgs); throws on text that is
 * not an event object.
 */
export function decodeEvent(text: string): DecodedEvent {
  const value: unknown = JSON.parse(text);
  if (
    typeof value !== 'object' ||
    value === null ||
    typeof (value as { type?: unknown }).type !== 'string'
  ) {
    throw new TypeError('a run event must be a JSON object with a string "type"');
  }
  return freezeJson(value as DecodedEvent);
}

/** The reply Msg of a decoded `reply` event. */
export function replyOf(event: DecodedEvent): Msg | undefined {
  return event.type === 'reply' ? ((event as unknown as { msg: Msg }).msg ?? undefined) : undefined;
}
