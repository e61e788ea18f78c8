import type { Hook, Msg } from '@rxagent/core';

/**
 * The hook a local participant of a `RedisMsgHub` gets: on its `postCall` (after every other
 * postCall hook, so the reply is the one its caller receives) the reply is appended to the
 * topic's stream, and the call goes on only once Redis has stored it. When Redis cannot
 * store it, the hook's error fails the call: a reply the other processes will never hear
 * is not reported as delivered. Internal.
 */
export function hubPublisher(hubId: string, append: (msg: Msg) => Promise<unknown>): Hook {
  return {
    name: `redis-hub:${hubId}`,
    priority: Number.MAX_SAFE_INTEGER,
    events: ['postCall'],
    async onEvent(event) {
      if (event.type === 'postCall') await append(event.reply);
    },
  };
}
