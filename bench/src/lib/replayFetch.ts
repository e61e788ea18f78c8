import { sdkLoop } from '../contenders/sdkLoop.js';
import { USER_PROMPT } from '../scenario/conversation.js';

/** The server's replies to one conversation, keyed by request body, as SSE events. */
export type RecordedReplies = ReadonlyMap<string, readonly Uint8Array[]>;

/** Where replay requests go: never contacted, the replay answers first. */
export const REPLAY_BASE_URL = 'http://replay.invalid/v1';

/**
 * Runs one scenario conversation against the strict server at `baseURL` (through the SDK
 * loop) and records each reply, split into its SSE events, under its request's body. Every
 * contender sends the same bodies, so the recording answers all of them.
 */
export async function recordReplies(baseURL: string): Promise<RecordedReplies> {
  const replies = new Map<string, Uint8Array[]>();
  const encoder = new TextEncoder();
  const recorder: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const text = await response.text();
    const events = text.split(/(?<=\n\n)/).map((event) => encoder.encode(event));
    replies.set(String(init?.body), events);
    return new Response(text, { status: response.status, headers: response.headers });
  };
  await sdkLoop(baseURL, 'recording', recorder).run(USER_PROMPT);
  return replies;
}

/**
 * A `fetch` that answers from `replies` without a socket: a streamed `Response` whose body
 * yields one SSE event per read, as a server's chunked reply does. What remains per model
 * call is the client's own work: the SDK (request building, SSE parsing) and what the
 * contender does around it. An unrecorded body is an error naming its start.
 */
export function replayFetch(replies: RecordedReplies): typeof fetch {
  const headers = { 'content-type': 'text/event-stream' };
  return async (_input, init) => {
    const events = replies.get(String(init?.body));
    if (!events) {
      throw new Error(`replayFetch: no recorded reply for ${String(init?.body).slice(0, 200)}`);
    }
    let next = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const event = events[next++];
        if (event) controller.enqueue(event);
        else controller.close();
      },
    });
    return new Response(body, { status: 200, headers });
  };
}
