/**
 * The Redis store of react-agent's durable crash harness (its `WorldStore` module): each
 * world's session is a `RedisSession` under the world's own prefix.
 */
import { RedisSession } from '@rxagent/redis';

/** A `RedisSession` on `url`, its keys under `<prefix>:`. */
export function openSession(url: string, prefix: string): RedisSession {
  return new RedisSession({ url, prefix: `${prefix}:` });
}
