import type { Msg } from '@rxagent/core';
import { textOf } from '@rxagent/core';
import { filter, firstValueFrom, map, take, toArray } from 'rxjs';
import type { RedisMsgHub } from '../src/hub/redisMsgHub.js';
import type { RedisHubEvent } from '../src/hub/redisMsgHubOptions.js';

type Delivered = Extract<RedisHubEvent, { type: 'delivered' }>;

/** Resolves with the next `count` deliveries of `hub` (subscribes at once, so call it before the trigger). */
export function nextDeliveries(hub: RedisMsgHub, count: number): Promise<Delivered[]> {
  return firstValueFrom(
    hub.events.pipe(
      filter((event): event is Delivered => event.type === 'delivered'),
      take(count),
      toArray(),
    ),
  );
}

/** Resolves once `hub` has delivered a message whose text is `text`. */
export function deliveredText(hub: RedisMsgHub, text: string): Promise<Delivered> {
  return firstValueFrom(
    hub.events.pipe(
      filter(
        (event): event is Delivered => event.type === 'delivered' && textOf(event.msg) === text,
      ),
    ),
  );
}

/** Resolves with the next error `hub` reports. */
export function nextError(hub: RedisMsgHub): Promise<unknown> {
  return firstValueFrom(
    hub.events.pipe(
      filter((event) => event.type === 'error'),
      map((event) => (event.type === 'error' ? event.error : undefined)),
    ),
  );
}

/** The texts of `msgs`. */
export function texts(msgs: readonly Msg[]): string[] {
  return msgs.map(textOf);
}
